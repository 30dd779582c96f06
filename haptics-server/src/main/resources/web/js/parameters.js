// The parameter panel: what SET_PARAMETER accepts now (/api/parameters, docs/web-visualizer.md), each with a slider
// and a number box within the server's limits. The server keeps the limits: the page only offers what it would
// accept, and shows its ACK, so a refusal (another client changed a partner value meanwhile) is seen, not hidden.

/** Names the page has its own control for. */
const OWN_CONTROLS = new Set(['hand.buttons']);
/** Slider positions across a parameter's range. */
const SLIDER_STEPS = 200;
/** How long to wait before asking again when the server has not yet adopted the scene the page was sent. */
const RETRY_MS = 200;

/** A number as people read it: up to 6 significant digits, no trailing zeros. */
export function formatValue(value) {
  return String(Number(value.toPrecision(6)));
}

/** The accepted range in interval notation with its unit, e.g. "(0, 1000] N/m". */
export function describeRange(p) {
  const high = p.max === null ? '∞)' : `${formatValue(p.max)}]`;
  return `${p.minIncluded ? '[' : '('}${formatValue(p.min)}, ${high}${p.unit ? ` ${p.unit}` : ''}`;
}

export class ParameterPanel {
  /**
   * @param root   the element the rows go into
   * @param send   (name, value) => command id, or a negative number when it could not be sent
   * @param hook   the page's test hook; the panel keeps its counts there
   */
  constructor(root, send, hook) {
    this.root = root;
    this.send = send;
    this.hook = hook;
    this.table = null;
    this.wantedRevision = 0;
    this.pending = new Map();
    this.loading = null;
    hook.parametersLoaded = 0;
    hook.parameterNames = [];
    hook.parametersSent = 0;
    hook.parametersAccepted = 0;
    hook.parametersRefused = 0;
    hook.lastParameterRefusal = null;
    hook.parameterValue = (name) => this.valueOf(name);
  }

  valueOf(name) {
    const p = this.table?.parameters.find((q) => q.name === name);
    return p === undefined ? null : p.value;
  }

  /**
   * Reads the table again; waits for the server to have adopted the scene revision the page last drew. The revision
   * is the last SCENE's, not the highest seen: a restarted server counts from 1 again.
   */
  async load(sceneRevision = this.wantedRevision) {
    this.wantedRevision = sceneRevision;
    if (this.loading !== null) {
      this.reloadAfter = true;
      return this.loading;
    }
    this.loading = (async () => {
      for (;;) {
        let table;
        try {
          table = await fetch('/api/parameters', { cache: 'no-store' }).then((r) => r.json());
        } catch (e) {
          this.root.dataset.state = 'unreachable';
          return;
        }
        if (table.sceneRevision < this.wantedRevision) {
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
          continue;
        }
        this.show(table);
        if (!this.reloadAfter) {
          return;
        }
        this.reloadAfter = false;
      }
    })();
    try {
      await this.loading;
    } finally {
      this.loading = null;
    }
  }

  /**
   * Reads the values in force and shows them only if they changed since the last table shown (another client's
   * SET_PARAMETER is ACKed to that client only): a row being edited is not rewritten for nothing every second.
   */
  async refresh() {
    if (this.loading !== null || this.table === null) {
      return;
    }
    let table;
    try {
      table = await fetch('/api/parameters', { cache: 'no-store' }).then((r) => r.json());
    } catch (e) {
      return;
    }
    if (table.sceneRevision === this.table.sceneRevision
        && JSON.stringify(table.parameters) !== JSON.stringify(this.table.parameters)) {
      this.show(table);
    }
  }

  show(table) {
    this.table = table;
    this.hook.parametersLoaded++;
    const shown = table.parameters.filter((p) => !OWN_CONTROLS.has(p.name));
    this.hook.parameterNames = shown.map((p) => p.name);
    const sameRows = this.root.dataset.revision === String(table.sceneRevision)
      && [...this.root.children].map((row) => row.dataset.name).join() === this.hook.parameterNames.join();
    if (!sameRows) {
      this.root.replaceChildren(...shown.map((p) => this.row(p)));
      this.root.dataset.revision = String(table.sceneRevision);
    }
    for (const p of shown) {
      this.update(this.root.querySelector(`[data-name="${CSS.escape(p.name)}"]`), p);
    }
    this.root.dataset.state = 'loaded';
  }

  row(p) {
    const row = document.createElement('div');
    row.className = 'param';
    row.dataset.name = p.name;
    row.innerHTML = '<label></label><div class="param-edit"><input type="range"><input type="number" step="any">'
      + '<span class="unit"></span><button type="button">Set</button></div><div class="note param-note"></div>';
    row.querySelector('label').textContent = p.name;
    row.querySelector('.unit').textContent = p.unit;
    const slider = row.querySelector('input[type=range]');
    const box = row.querySelector('input[type=number]');
    slider.addEventListener('input', () => { box.value = slider.value; });
    slider.addEventListener('change', () => this.set(row, Number(slider.value)));
    // An empty box is not 0: Number('') is, and a damper set to 0 is switched off.
    const typed = () => (box.value.trim() === '' ? NaN : Number(box.value));
    row.querySelector('button').addEventListener('click', () => this.set(row, typed()));
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        this.set(row, typed());
      }
    });
    return row;
  }

  /** Puts the server's value and limits on a row (a grating's limits move with its partner's value). */
  update(row, p) {
    const slider = row.querySelector('input[type=range]');
    const box = row.querySelector('input[type=number]');
    row.title = p.limits;
    // A slider needs both ends; a grating's period has no upper one, so it has only the number box.
    slider.hidden = p.max === null;
    // The values are read every second: a control the user is working (focused) keeps what they are entering.
    if (p.max !== null) {
      const step = p.wholeNumber ? 1 : (p.max - p.min) / SLIDER_STEPS;
      slider.step = String(step);
      slider.min = String(p.minIncluded ? p.min : p.min + step);
      slider.max = String(p.max);
      if (document.activeElement !== slider) {
        slider.value = String(p.value);
      }
    }
    if (document.activeElement !== box) {
      box.value = formatValue(p.value);
    }
    if (!this.pending.has(p.name)) {
      const note = row.querySelector('.param-note');
      note.textContent = `${describeRange(p)}; scene file ${formatValue(p.loaded)}`;
      note.classList.remove('refused');
    }
  }

  set(row, value) {
    const name = row.dataset.name;
    const note = row.querySelector('.param-note');
    if (!Number.isFinite(value)) {
      note.textContent = `${name}: not a number`;
      note.classList.add('refused');
      return;
    }
    const id = this.send(name, value);
    if (id < 0) {
      note.textContent = `${name}: not sent (${id === -2 ? 'no token' : 'disconnected'})`;
      note.classList.add('refused');
      return;
    }
    this.hook.parametersSent++;
    this.pending.set(name, id);
    note.textContent = `${name} = ${formatValue(value)}: sent, waiting for ACK`;
    note.classList.remove('refused');
  }

  /** The ACK of one of this panel's SET_PARAMETERs: shown on its row, then the values read again. */
  onAck(ack, command) {
    const name = command.args.name;
    const row = this.root.querySelector(`[data-name="${CSS.escape(name)}"]`);
    if (this.pending.get(name) === ack.commandId) {
      this.pending.delete(name);
    }
    if (ack.accepted) {
      this.hook.parametersAccepted++;
    } else {
      this.hook.parametersRefused++;
      this.hook.lastParameterRefusal = ack.reason;
    }
    this.load().then(() => {
      if (row !== null && !ack.accepted) {
        const note = row.querySelector('.param-note');
        note.textContent = ack.reason;
        note.classList.add('refused');
      }
    });
  }
}
