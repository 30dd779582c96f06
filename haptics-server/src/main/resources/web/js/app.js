// The hapticsd visualizer: connects to the stream in its JSON form (docs/stream-protocol.md), draws the scene,
// plots force, penetration and loop jitter, shows the loop's status and sends commands. docs/web-visualizer.md
// describes the page.
import { StreamConnection } from './connection.js';
import { SceneView, num } from './view3d.js';
import { StripChart, PulsePlot } from './plots.js';
import { HandDrag } from './drag.js';
import { ParameterPanel } from './parameters.js';

const HISTORY_S = 10;
const STATE_RATE_HZ = 60;
const STATUS_POLL_MS = 1000;
const LOG_LINES = 8;
const TOKEN_KEY = 'hapticsd.token';
/** The tool's body id in contacts and events (section 4.2). */
const TOOL_ID = 0xffff;

const $ = (id) => document.getElementById(id);

/** What a browser test reads: the page's latest view of the stream. */
const hook = {
  connected: false,
  sessionsLoaded: 0,
  serverVersion: null,
  sceneName: null,
  sceneRevision: null,
  bodiesDrawn: 0,
  tick: -1,
  statesReceived: 0,
  lastForceN: 0,
  commandedForceN: 0,
  maxDepthM: 0,
  toolDepthM: 0,
  contacts: 0,
  toolContacts: 0,
  safetyState: null,
  paused: false,
  toolPositionM: null,
  handTargetM: null,
  moveHandSent: 0,
  moveHandAccepted: 0,
  moveHandRefused: 0,
  lastMoveHandRefusal: null,
  buttonsSent: 0,
  buttonsAccepted: 0,
  buttonsRefused: 0,
  lastButtonsRefusal: null,
  lastAck: null,
  clients: null,
  impulseCollisions: 0,
  lastPulse: null,
  sceneWarnings: null,
  errors: window.hapticsdErrors,
};
window.hapticsd = hook;

let token = sessionStorage.getItem(TOKEN_KEY);
let tokenFromUser = true;

/** Reads /api/session; after a reconnect too, since a restarted server may have a new token. */
async function loadSession() {
  const session = await fetch('/api/session', { cache: 'no-store' }).then((r) => r.json());
  if (session.token != null) {
    token = session.token;
    tokenFromUser = false;
  }
  hook.sessionsLoaded++;
  $('token-note').textContent = session.token != null
    ? 'Commands use the token this server gave the page (loopback).'
    : 'Commands need the token hapticsd run printed; the page asks for it once.';
  return session;
}

async function firstSession() {
  for (;;) {
    try {
      return await loadSession();
    } catch (e) {
      $('st-server').textContent = 'server unreachable, retrying';
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

const session = await firstSession();

const view = new SceneView($('view'));
Object.defineProperty(hook, 'framesRendered', { get: () => view.framesRendered });
Object.defineProperty(hook, 'triangles', { get: () => view.triangles });
Object.defineProperty(hook, 'deformableUpdates', { get: () => view.deformableUpdates ?? 0 });
hook.deformableNode = (name, i) => view.deformableNode(name, i);
hook.screenOf = (point) => view.screenOf(point);
hook.inView = (point) => view.inView(point);
hook.toolScreen = () => view.screenOf(view.tool.position.toArray());

const charts = {
  force: new StripChart($('plot-force'), {
    title: 'force', unit: 'N', windowS: HISTORY_S,
    series: [{ label: 'rendered', colour: '#e0309a' }, { label: 'commanded', colour: '#4fc3f7' }],
  }),
  depth: new StripChart($('plot-depth'), {
    title: 'penetration', unit: 'mm', windowS: HISTORY_S,
    series: [{ label: 'tool', colour: '#39d353' }, { label: 'any contact', colour: '#8d6e63' }],
  }),
  jitter: new StripChart($('plot-jitter'), {
    title: 'period error p99', unit: 'µs', windowS: HISTORY_S, series: [{ label: 'p99', colour: '#9ccc65' }],
  }),
};

const pulsePlot = new PulsePlot($('plot-pulse'));
let tickRateHz = 1000;

let scene = null;
let bodyNames = new Map();

function commandToken() {
  if (token) {
    return token;
  }
  const given = window.prompt('Command token (printed by hapticsd run):');
  if (given) {
    token = given.trim();
    tokenFromUser = true;
    sessionStorage.setItem(TOKEN_KEY, token);
  }
  return token || null;
}

function log(listId, text, cssClass) {
  const list = $(listId);
  const item = document.createElement('li');
  item.textContent = text;
  if (cssClass) {
    item.className = cssClass;
  }
  list.prepend(item);
  while (list.children.length > LOG_LINES) {
    list.lastChild.remove();
  }
  return item;
}

const ackItems = new Map();

/** How the log names a command: its kind, and the parameter or scene it names. */
function labelOf(kind, args) {
  if (kind === 'SET_PARAMETER') {
    return `SET_PARAMETER ${args.name} = ${args.value}`;
  }
  return kind === 'LOAD_SCENE' ? `LOAD_SCENE ${args.sceneName}` : kind;
}

function send(kind, args = {}) {
  const label = labelOf(kind, args);
  const t = commandToken();
  if (t === null) {
    log('acks', `${label}: not sent, no token`, 'refused');
    return;
  }
  const id = connection.command(kind, t, args);
  if (id < 0) {
    log('acks', `${label}: not sent, disconnected`, 'refused');
    return;
  }
  ackItems.set(id, log('acks', `${label}: sent, waiting for ACK`));
}

function onAck(ack, command) {
  const kind = command ? command.kind : `command ${ack.commandId}`;
  hook.lastAck = { commandId: ack.commandId, kind, accepted: ack.accepted, reason: ack.reason };
  if (!ack.accepted && tokenFromUser && ack.reason.includes('token')) {
    // The token the user typed is wrong: ask again at the next command.
    token = null;
    sessionStorage.removeItem(TOKEN_KEY);
  }
  if (kind === 'SET_PARAMETER' && command.args.name === 'hand.buttons') {
    if (ack.accepted) {
      hook.buttonsAccepted++;
    } else {
      hook.buttonsRefused++;
      hook.lastButtonsRefusal = ack.reason;
    }
    $('drag-status').textContent = ack.accepted
      ? `stylus button 1 ${command.args.value ? 'held down' : 'let go'}` : `button refused: ${ack.reason}`;
    return;
  }
  if (kind === 'MOVE_HAND') {
    if (ack.accepted) {
      hook.moveHandAccepted++;
    } else {
      hook.moveHandRefused++;
      hook.lastMoveHandRefusal = ack.reason;
    }
    $('drag-status').textContent = ack.accepted ? `hand moved (${hook.moveHandAccepted} accepted)`
      : `MOVE_HAND refused: ${ack.reason}`;
    return;
  }
  if (kind === 'SET_PARAMETER') {
    parameters.onAck(ack, command);
  }
  const label = command ? labelOf(kind, command.args) : kind;
  const text = ack.accepted ? `${label}: accepted` : `${label}: refused: ${ack.reason}`;
  const item = ackItems.get(ack.commandId);
  ackItems.delete(ack.commandId);
  if (item) {
    item.textContent = text;
    item.className = ack.accepted ? 'accepted' : 'refused';
  } else {
    log('acks', text, ack.accepted ? 'accepted' : 'refused');
  }
  $('acks').dataset.last = text;
}

function onScene(msg) {
  scene = msg;
  latest = null;
  bodyNames = new Map(msg.bodies.map((b) => [b.id, b.name]));
  view.setScene(msg);
  view.showHand(null);
  hook.sceneName = msg.name;
  hook.sceneRevision = msg.revision;
  hook.bodiesDrawn = view.bodiesDrawn;
  hook.handTargetM = null;
  $('st-scene').textContent = `${msg.name} (revision ${msg.revision}, ${msg.bodies.length} bodies)`;
  $('status').dataset.bodiesDrawn = String(view.bodiesDrawn);
  parameters.load(msg.revision);
  hook.sceneWarnings = null;
  loadWarnings(msg.revision);
}

/**
 * The scene's build warnings (/api/warnings: a spring the device cannot render passively, ...), shown under the
 * status: a scene loaded from this page warns otherwise only in the server's log. Read once the server has adopted
 * the revision drawn.
 */
async function loadWarnings(revision) {
  // Given up once the page draws another revision (a restarted server counts from 1 again).
  for (let tries = 0; tries < 50 && scene !== null && scene.revision === revision; tries++) {
    let answer;
    try {
      answer = await fetch('/api/warnings', { cache: 'no-store' }).then((r) => r.json());
    } catch (e) {
      return;
    }
    if (answer.sceneRevision >= revision) {
      if (scene === null || scene.revision !== revision) {
        return;
      }
      const list = $('scene-warnings');
      list.replaceChildren(...answer.warnings.map((w) => {
        const item = document.createElement('li');
        item.textContent = `⚠ ${w}`;
        return item;
      }));
      list.hidden = answer.warnings.length === 0;
      hook.sceneWarnings = answer.warnings;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function vectorLength(v) {
  return Math.hypot(num(v[0]), num(v[1]), num(v[2]));
}

let latest = null;

/** Every STATE updates the hook and the plots' history; the 3-D view and the panel follow once per frame. */
function onState(msg) {
  if (scene === null || msg.sceneRevision !== scene.revision) {
    // A state of a scene this page has not been sent (section 3.1, item 4).
    return;
  }
  const forceN = vectorLength(msg.renderedForceN);
  const commandedN = vectorLength(msg.commandedForceN);
  // The deepest contact of all, and of the tool's alone: the one the user feels.
  let depthM = 0;
  let toolDepthM = 0;
  let toolContacts = 0;
  for (const c of msg.contacts) {
    const d = num(c.depthM);
    depthM = Math.max(depthM, d);
    if (c.bodyA === TOOL_ID || c.bodyB === TOOL_ID) {
      toolDepthM = Math.max(toolDepthM, d);
      toolContacts++;
    }
  }
  const nowS = performance.now() / 1000;
  charts.force.push(nowS, forceN, commandedN);
  charts.depth.push(nowS, toolDepthM * 1e3, depthM * 1e3);
  charts.jitter.push(nowS, msg.loop.periodErrorP99Ns / 1e3);

  hook.tick = msg.tick;
  hook.statesReceived++;
  hook.lastForceN = forceN;
  hook.commandedForceN = commandedN;
  hook.maxDepthM = depthM;
  hook.toolDepthM = toolDepthM;
  hook.contacts = msg.contacts.length;
  hook.toolContacts = toolContacts;
  hook.safetyState = msg.safetyState;
  hook.paused = msg.paused;
  hook.toolPositionM = msg.toolPositionM.map(num);
  latest = { msg, forceN, commandedN, toolDepthM, toolContacts };
  const status = $('status').dataset;
  status.tick = String(msg.tick);
  status.forceN = forceN.toFixed(4);
  status.safety = msg.safetyState;
}

function showLatest() {
  if (latest === null) {
    return;
  }
  const { msg, forceN, commandedN, toolDepthM, toolContacts } = latest;
  latest = null;
  view.applyState(msg);
  for (const chart of Object.values(charts)) {
    chart.draw();
  }
  pulsePlot.draw();
  const loop = msg.loop;
  $('st-tick').textContent = String(msg.tick);
  $('st-rate').textContent = `${num(loop.achievedRateHz).toFixed(1)} Hz`;
  $('st-jitter').textContent = `${(loop.periodErrorP99Ns / 1e3).toFixed(1)} µs`;
  $('st-ticktime').textContent = `${(loop.tickTimeP99Ns / 1e3).toFixed(1)} µs`;
  $('st-overruns').textContent = String(loop.overruns);
  // The physics step's p99 as a share of the tick; over budget when it no longer leaves room for the rest.
  $('st-physics').textContent = `${loop.physicsOverBudget ? 'over budget' : 'within budget'}, `
    + `step p99 ${loop.physicsLoadPercent >= 255 ? '≥ 255' : loop.physicsLoadPercent} % of the tick`;
  $('st-physics').className = loop.physicsOverBudget ? 'bad' : 'ok';
  $('st-safety').textContent = msg.safetyFault === 'NONE' ? msg.safetyState : `${msg.safetyState} (${msg.safetyFault})`;
  $('st-safety').className = msg.safetyState === 'ACTIVE' ? 'ok' : (msg.safetyState === 'RAMPING' ? '' : 'bad');
  const deviceFault = msg.safetyFault === 'DEVICE' || msg.safetyFault === 'WATCHDOG';
  $('st-device').textContent = !msg.deviceConnected ? 'disconnected' : (deviceFault ? `fault: ${msg.safetyFault}` : 'connected');
  $('st-device').className = msg.deviceConnected && !deviceFault ? 'ok' : 'bad';
  $('st-paused').textContent = msg.paused ? 'paused' : 'running';
  $('st-force').textContent = `${forceN.toFixed(3)} N rendered, ${commandedN.toFixed(3)} N commanded`;
  $('st-depth').textContent = `tool ${(toolDepthM * 1e3).toFixed(2)} mm (${toolContacts} tool contact(s), `
    + `${msg.contacts.length} in all)`;
}
view.onFrame = showLatest;

function describe(event) {
  const name = (id) => (id === TOOL_ID ? 'tool' : (bodyNames.get(id) ?? `#${id}`));
  switch (event.kind) {
    case 'CONTACT_BEGAN':
    case 'CONTACT_ENDED':
      return `${event.kind} ${name(event.bodyA)} / ${name(event.bodyB)}`;
    case 'IMPACT':
      return `IMPACT ${name(event.bodyA)} / ${name(event.bodyB)} ${num(event.impulseNewtonSeconds).toFixed(4)} N·s`;
    case 'SAFETY_CHANGED':
      return `SAFETY ${event.from} → ${event.to}${event.fault === 'NONE' ? '' : ` (${event.fault})`}`;
    case 'PHYSICS_OVER_BUDGET':
    case 'PHYSICS_WITHIN_BUDGET':
      return `${event.kind} step p99 ${(event.stepP99Ns / 1e3).toFixed(0)} µs, budget ${(event.budgetNs / 1e3).toFixed(0)} µs`;
    case 'CONTACTS_DROPPED':
      return `CONTACTS_DROPPED ${event.droppedPairs} pair(s), ${event.droppedPoints} point(s)`;
    case 'IMPULSE_COLLISION':
      return `IMPULSE_COLLISION ${name(event.bodyA)} / ${name(event.bodyB)} (${event.mode}) `
        + `IP ${num(event.impulseNewtonSeconds).toFixed(4)} N·s, H ${num(event.heightN).toFixed(2)} N, `
        + `W ${(num(event.durationS) * 1e3).toFixed(1)} ms, e ${num(event.elasticity).toFixed(2)}`;
    default:
      return event.kind;
  }
}

/** An impulse waveform began: plot it beside the force (the pair, its mode, IP_z, H, W, e). */
function onPulse(event) {
  const name = (id) => (id === TOOL_ID ? 'tool' : (bodyNames.get(id) ?? `#${id}`));
  const shown = pulsePlot.show(event, tickRateHz, `${name(event.bodyA)} / ${name(event.bodyB)}`);
  hook.impulseCollisions++;
  if (shown !== null) {
    hook.lastPulse = { tick: event.tick, bodyA: event.bodyA, bodyB: event.bodyB, mode: event.mode,
      impulseNewtonSeconds: num(event.impulseNewtonSeconds), heightN: num(event.heightN),
      durationS: num(event.durationS), elasticity: num(event.elasticity), ...shown };
  }
}

function setConnection(text, ok) {
  $('st-conn').textContent = text;
  $('st-conn').className = ok ? 'ok' : 'bad';
  $('status').dataset.connection = ok ? 'connected' : 'disconnected';
}

// SET_PARAMETER from the parameter panel; -2 when there is no token, -1 when disconnected.
const parameters = new ParameterPanel($('parameters'), (name, value) => {
  const t = commandToken();
  return t === null ? -2 : connection.command('SET_PARAMETER', t, { name, value });
}, hook);

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${session.webSocketPath}`
  + `?format=json&rate=${STATE_RATE_HZ}`;
const connection = new StreamConnection(wsUrl, {
  onOpen: () => setConnection('connected', true),
  onClose: (retryMs) => {
    hook.connected = false;
    // The browser hides a refused upgrade's reason from the page; /api/session says it for this page's host name.
    setConnection(session.streamRefused != null
      ? `refused by the server: ${session.streamRefused}`
      : `disconnected, retrying in ${(retryMs / 1000).toFixed(1)} s`, false);
  },
  onAck,
  onLost: (id, command) => {
    const item = ackItems.get(id);
    ackItems.delete(id);
    if (item) {
      // The server may have read it: only its ACK was lost with the connection.
      item.textContent = `${command.kind}: no ACK, the connection closed (it may or may not have been carried out)`;
      item.className = 'lost';
    }
  },
  onMessage: (msg) => {
    switch (msg.type) {
      case 'HELLO':
        hook.connected = true;
        if (hook.statesReceived > 0) {
          loadSession().catch(() => {
            $('token-note').textContent = 'Could not read /api/session again; commands use the token known before.';
          });
        }
        loadSceneList();
        hook.serverVersion = msg.serverVersion;
        tickRateHz = msg.tickRateHz;
        $('st-server').textContent = `${msg.serverVersion}, protocol ${msg.protocolVersion}, loop ${msg.tickRateHz} Hz`;
        break;
      case 'SCENE':
        onScene(msg);
        break;
      case 'STATE':
        onState(msg);
        break;
      case 'EVENTS':
        for (const e of msg.events) {
          log('events', `tick ${e.tick}: ${describe(e)}`);
          if (e.kind === 'IMPULSE_COLLISION') {
            onPulse(e);
          }
        }
        break;
      default:
        break;
    }
  },
}, STATE_RATE_HZ);
hook.stateRateHz = () => connection.rateHz;
setConnection('connecting', false);
connection.start();

/** The scenes LOAD_SCENE may load (the server's --scene-dir); the menu is hidden when there are none. */
async function loadSceneList() {
  let catalog;
  try {
    catalog = await fetch('/api/scenes', { cache: 'no-store' }).then((r) => r.json());
  } catch (e) {
    return;
  }
  const select = $('scene-select');
  // Replaced only when the list changed: rebuilding the options of a menu being opened would close it.
  if ([...select.options].map((o) => o.value).join('\n') !== catalog.scenes.join('\n')) {
    const chosen = select.value;
    select.replaceChildren(...catalog.scenes.map((name) => new Option(name, name)));
    if (catalog.scenes.includes(chosen)) {
      select.value = chosen;
    }
  }
  $('scene-loader').hidden = !catalog.loading || catalog.scenes.length === 0;
  hook.scenesListed = catalog.scenes;
}
hook.scenesListed = null;
$('load-scene').addEventListener('click', () => send('LOAD_SCENE', { sceneName: $('scene-select').value }));
// A file added to the directory while the page is open is offered the next time the menu is opened.
$('scene-select').addEventListener('focus', loadSceneList);

for (const button of document.querySelectorAll('button[data-command]')) {
  button.addEventListener('click', () => send(button.dataset.command));
}

// The simulated stylus's first button, as a toggle (one mouse both holds it and drags the tool): SET_PARAMETER
// hand.buttons 1, then 0. The page shows it held from the click; a refusal shows in the drag status line.
$('grab').addEventListener('click', () => {
  const grab = $('grab');
  const mask = grab.getAttribute('aria-pressed') === 'true' ? 0 : 1;
  const t = commandToken();
  const id = t === null ? -1 : connection.command('SET_PARAMETER', t, { name: 'hand.buttons', value: mask });
  if (id < 0) {
    $('drag-status').textContent = t === null ? 'button not sent: no token' : 'button not sent: disconnected';
    return;
  }
  hook.buttonsSent++;
  grab.setAttribute('aria-pressed', mask ? 'true' : 'false');
  grab.textContent = mask ? 'Release button 1' : 'Press button 1';
});

new HandDrag(view, $('view'), (point) => {
  const t = commandToken();
  const id = t === null ? -1 : connection.command('MOVE_HAND', t, { x: point.x, y: point.y, z: point.z });
  if (id < 0) {
    $('drag-status').textContent = t === null ? 'MOVE_HAND not sent: no token' : 'MOVE_HAND not sent: disconnected';
    return false;
  }
  hook.moveHandSent++;
  hook.handTargetM = [point.x, point.y, point.z];
  return true;
}, () => connection.open && commandToken() !== null);

async function pollStatus() {
  let status;
  try {
    status = await fetch('/api/status', { cache: 'no-store' }).then((r) => r.json());
  } catch (e) {
    // Only this request while the server is away: the others would each log one more refused connection a second.
    $('st-clients').textContent = 'unknown (server unreachable)';
    return;
  }
  hook.clients = status.clients;
  $('st-clients').textContent = `${status.clients} open (refused ${status.refusedConnections}, errors ${status.clientErrors})`;
  if (scene !== null) {
    // A failed reload of the scene file (run --reload) comes with no new SCENE: it is read here.
    loadWarnings(scene.revision);
    // Another client's SET_PARAMETER is ACKed to that client only: the values in force are read here too, so the
    // panel does not keep showing a value replaced from elsewhere (a tester's `hapticsd send`).
    parameters.refresh();
  }
}
pollStatus();
setInterval(pollStatus, STATUS_POLL_MS);
