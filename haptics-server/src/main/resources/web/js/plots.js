// Strip charts on a plain 2-D canvas: the last few seconds of one or two series, scaled to what is shown.

export class StripChart {
  /**
   * @param canvas  the canvas to draw on
   * @param options title, unit, windowS (history shown), series: [{ label, colour }]
   */
  constructor(canvas, options) {
    this.canvas = canvas;
    this.title = options.title;
    this.unit = options.unit;
    this.windowS = options.windowS;
    this.series = options.series.map((s) => ({ ...s, t: [], v: [] }));
  }

  /** Appends one sample per series at time tS (seconds, any monotonic origin); non-finite values leave a gap. */
  push(tS, ...values) {
    this.series.forEach((s, i) => {
      s.t.push(tS);
      s.v.push(values[i]);
      let drop = 0;
      while (drop < s.t.length && s.t[drop] < tS - this.windowS) {
        drop++;
      }
      if (drop > 0) {
        s.t.splice(0, drop);
        s.v.splice(0, drop);
      }
    });
    this.nowS = tS;
  }

  draw() {
    const { g, width, height } = fitCanvas(this.canvas);
    g.clearRect(0, 0, width, height);
    g.fillStyle = '#14171b';
    g.fillRect(0, 0, width, height);

    let max = 0;
    for (const s of this.series) {
      for (const v of s.v) {
        if (Number.isFinite(v) && v > max) {
          max = v;
        }
      }
    }
    // Round the scale up to 1, 2 or 5 × 10^k so it does not jitter with every sample.
    const top = niceCeil(max > 0 ? max : 1);
    const left = 4;
    const plotTop = 18;
    const plotHeight = height - plotTop - 4;
    const plotWidth = width - left - 4;
    g.strokeStyle = '#2c333b';
    g.lineWidth = 1;
    for (let k = 0; k <= 4; k++) {
      const y = plotTop + (plotHeight * k) / 4;
      g.beginPath();
      g.moveTo(left, y);
      g.lineTo(left + plotWidth, y);
      g.stroke();
    }
    const now = this.nowS ?? 0;
    for (const s of this.series) {
      g.strokeStyle = s.colour;
      g.lineWidth = 1.5;
      g.beginPath();
      let pen = false;
      for (let i = 0; i < s.t.length; i++) {
        const v = s.v[i];
        if (!Number.isFinite(v)) {
          pen = false;
          continue;
        }
        const x = left + plotWidth * (1 - (now - s.t[i]) / this.windowS);
        const y = plotTop + plotHeight * (1 - Math.min(v, top) / top);
        if (pen) {
          g.lineTo(x, y);
        } else {
          g.moveTo(x, y);
          pen = true;
        }
      }
      g.stroke();
    }
    g.fillStyle = '#c8d0d8';
    g.font = '11px system-ui, sans-serif';
    const latest = this.series.map((s) => `${s.label} ${format(s.v[s.v.length - 1])}`).join('  ');
    g.fillText(`${this.title} (${this.unit}), full scale ${top}: ${latest}`, left, 12);
  }
}

/** Sizes the canvas's pixels to its box at the device's pixel ratio; returns the context, its size, and whether it changed. */
function fitCanvas(c) {
  const dpr = window.devicePixelRatio || 1;
  const width = c.clientWidth;
  const height = c.clientHeight;
  const resized = c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr);
  if (resized) {
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
  }
  const g = c.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { g, width, height, resized };
}

function niceCeil(x) {
  const exponent = Math.floor(Math.log10(x));
  const base = 10 ** exponent;
  for (const step of [1, 2, 5, 10]) {
    if (x <= step * base) {
      return Number((step * base).toPrecision(3));
    }
  }
  return 10 * base;
}

function format(v) {
  if (v === undefined) {
    return '-';
  }
  return Number.isFinite(v) ? v.toFixed(Math.abs(v) >= 100 ? 0 : 2) : String(v);
}

/** Area of sin^κ(π·x) over [0, 1]: B(κ) of docs/scenes.md "The pulse shape" (1 for a rectangle, 2/π a half sine). */
export function pulseAreaFraction(kappa) {
  const n = 512;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += Math.sin(Math.PI * (i + 0.5) / n) ** kappa;
  }
  return sum / n;
}

/** The widest and narrowest shapes the server uses (docs/scenes.md): a rectangle, and sin^64. */
const KAPPA_MAX = 64;

/**
 * The pulse an IMPULSE_COLLISION event describes (docs/stream-protocol.md 4.4): p(t) = h·sin^κ(π·t/W) on [0, W],
 * κ chosen so its area is IP_z with h = H (B(κ) = IP_z/(H·W), by bisection); a rectangle when even that cannot
 * hold it, the narrowest shape when it must be narrower, both then with the height that gives the area.
 */
export function pulseShape(impulseNs, heightN, durationS) {
  const c = impulseNs / (heightN * durationS);
  let kappa;
  if (!(c < 1)) {
    kappa = 0;
  } else if (c <= pulseAreaFraction(KAPPA_MAX)) {
    kappa = KAPPA_MAX;
  } else {
    let lo = 0;
    let hi = KAPPA_MAX;
    for (let i = 0; i < 60; i++) {
      const mid = 0.5 * (lo + hi);
      if (pulseAreaFraction(mid) > c) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    kappa = 0.5 * (lo + hi);
  }
  const peakN = impulseNs / (durationS * pulseAreaFraction(kappa));
  return { kappa, peakN, at: (tS) => (tS < 0 || tS > durationS ? 0 : peakN * Math.sin(Math.PI * tS / durationS) ** kappa) };
}

/**
 * The last impulse waveform: its curve over its duration, and the force each loop tick carries (the mean of the
 * curve over the tick), as the device plays it one sample per tick.
 */
export class PulsePlot {
  constructor(canvas) {
    this.canvas = canvas;
    this.pulse = null;
    this.label = 'last pulse: none yet';
    this.detail = '';
  }

  /** Shows one IMPULSE_COLLISION; tickRateHz from HELLO; who names the pair. Returns what is drawn, for tests. */
  show(event, tickRateHz, who) {
    const ip = Number(event.impulseNewtonSeconds);
    const h = Number(event.heightN);
    const w = Number(event.durationS);
    if (!(ip > 0 && h > 0 && w > 0)) {
      return null;
    }
    const shape = pulseShape(ip, h, w);
    const dtS = 1 / (tickRateHz > 0 ? tickRateHz : 1000);
    const ticks = [];
    let areaNs = 0;
    for (let k = 0; k * dtS < w; k++) {
      // Mean of the curve over tick k (the last tick may be partial), by the midpoint rule.
      const t0 = k * dtS;
      const t1 = Math.min(w, t0 + dtS);
      const n = 16;
      let sum = 0;
      for (let i = 0; i < n; i++) {
        sum += shape.at(t0 + (t1 - t0) * (i + 0.5) / n);
      }
      const impulseNs = (sum / n) * (t1 - t0);
      ticks.push(impulseNs / dtS);
      areaNs += impulseNs;
    }
    this.pulse = { shape, w, dtS, ticks };
    this.label = `last pulse: ${who} (${event.mode})`;
    this.detail = `IP ${ip.toPrecision(3)} N·s  H ${h.toPrecision(3)} N  W ${(w * 1e3).toFixed(1)} ms  `
      + `e ${Number(event.elasticity).toFixed(2)}`;
    this.dirty = true;
    return { kappa: shape.kappa, peakN: shape.peakN, samples: ticks.length, areaNs,
      label: `${this.label}: ${this.detail}` };
  }

  draw() {
    const { g, width, height, resized } = fitCanvas(this.canvas);
    if (resized) {
      this.dirty = true;
    }
    if (this.dirty === false) {
      return;
    }
    this.dirty = false;
    g.fillStyle = '#14171b';
    g.fillRect(0, 0, width, height);
    const left = 4;
    const plotTop = 30;
    const plotHeight = height - plotTop - 4;
    const plotWidth = width - left - 4;
    g.fillStyle = '#c8d0d8';
    g.font = '11px system-ui, sans-serif';
    g.fillText(this.label, left, 12);
    g.fillText(this.detail, left, 25);
    if (this.pulse === null) {
      return;
    }
    const { shape, w, dtS, ticks } = this.pulse;
    const top = Math.max(shape.peakN, ...ticks) * 1.05;
    const x = (tS) => left + plotWidth * tS / w;
    const y = (f) => plotTop + plotHeight * (1 - f / top);
    // The ticks' forces as bars, then the curve over them.
    g.fillStyle = 'rgba(255, 167, 38, 0.45)';
    ticks.forEach((f, k) => {
      const x0 = x(k * dtS);
      const x1 = x(Math.min(w, (k + 1) * dtS));
      g.fillRect(x0, y(f), Math.max(1, x1 - x0 - 1), y(0) - y(f));
    });
    g.strokeStyle = '#ffa726';
    g.lineWidth = 1.5;
    g.beginPath();
    const n = Math.max(2, Math.round(plotWidth));
    for (let i = 0; i <= n; i++) {
      const t = (w * i) / n;
      if (i === 0) {
        g.moveTo(x(t), y(shape.at(t)));
      } else {
        g.lineTo(x(t), y(shape.at(t)));
      }
    }
    g.stroke();
  }
}
