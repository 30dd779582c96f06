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
    const c = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const width = c.clientWidth;
    const height = c.clientHeight;
    if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
    }
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
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
