// A heatmap of a classic histogram over time: one column per step, one row per bucket, the colour
// the number of observations that fell in the bucket during the step (the server sends each
// cumulative `le` series' gain over the step; each bucket's count is its cumulative count minus the
// one below).
import { fmt, fmtTime, esc } from './format.js';

function css(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function rgb(hex) {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(h.substr(i, 2), 16));
}

/** Per-bucket counts from cumulative series: {bounds, counts[row][col], max}. */
export function bucketCounts(xs, series) {
  const rows = series
    .map((s) => ({ le: s.le === '+Inf' ? Infinity : Number(s.le), values: s.values }))
    .filter((r) => !Number.isNaN(r.le))
    .sort((a, b) => a.le - b.le);
  const counts = rows.map(() => new Array(xs.length).fill(0));
  let max = 0;
  for (let c = 0; c < xs.length; c++) {
    let below = 0;
    for (let r = 0; r < rows.length; r++) {
      const cum = rows[r].values[c];
      if (cum == null) continue;
      const n = Math.max(0, cum - below);
      counts[r][c] = n;
      below = Math.max(below, cum);
      if (n > max) max = n;
    }
  }
  return { bounds: rows.map((r) => r.le), counts, max };
}

export function heatmap(el, xs, series, { unit, height = 180 }) {
  el.textContent = '';
  const { bounds, counts, max } = bucketCounts(xs, series);
  const canvas = document.createElement('canvas');
  canvas.className = 'heat';
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', 'Heatmap of ' + bounds.length + ' buckets over ' + xs.length + ' steps');
  const tip = document.createElement('div');
  tip.className = 'tip';
  el.style.position = 'relative';
  el.append(canvas, tip);
  // what the canvas shows, as text: the window's first and last column and the observations in all
  let total = 0;
  counts.forEach((row) => row.forEach((n) => { total += n; }));
  el.dataset.total = String(total);
  el.dataset.columns = String(xs.length);
  el.dataset.first = String(xs[0]);
  el.dataset.last = String(xs[xs.length - 1]);
  const padL = 64;
  const padB = 20;
  const padT = 8;
  function draw() {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(200, el.clientWidth);
    const h = height;
    canvas.width = w * dpr;
    canvas.height = h * dpr;
    canvas.style.height = h + 'px';
    const g = canvas.getContext('2d');
    g.scale(dpr, dpr);
    g.clearRect(0, 0, w, h);
    const lo = rgb(css('--heat-lo'));
    const hi = rgb(css('--heat-hi'));
    const cw = (w - padL) / Math.max(1, xs.length);
    const ch = (h - padB - padT) / Math.max(1, bounds.length);
    for (let r = 0; r < bounds.length; r++) {
      for (let c = 0; c < xs.length; c++) {
        const n = counts[r][c];
        if (!n) continue;
        // sqrt so that a few observations in the tail stay visible next to the mode
        const t = Math.sqrt(n / max);
        g.fillStyle = 'rgb(' + lo.map((x, i) => Math.round(x + (hi[i] - x) * t)).join(',') + ')';
        g.fillRect(padL + c * cw, h - padB - (r + 1) * ch, Math.ceil(cw), Math.ceil(ch));
      }
    }
    g.fillStyle = css('--muted');
    g.font = '11px system-ui, sans-serif';
    g.textBaseline = 'middle';
    const every = Math.ceil(bounds.length / Math.max(1, Math.floor((h - padB - padT) / 14)));
    for (let r = 0; r < bounds.length; r += every) {
      g.fillText('≤ ' + (bounds[r] === Infinity ? '+Inf' : fmt(bounds[r], unit)), 2, h - padB - (r + 0.5) * ch);
    }
    g.textBaseline = 'top';
    const ticks = Math.max(2, Math.floor((w - padL) / 140));
    for (let k = 0; k < ticks; k++) {
      const c = Math.round((k * (xs.length - 1)) / (ticks - 1));
      const label = fmtTime(xs[c] * 1000).slice(11, 16);
      g.fillText(label, Math.min(w - 34, padL + c * cw), h - padB + 4);
    }
  }
  canvas.addEventListener('mousemove', (e) => {
    const rect = canvas.getBoundingClientRect();
    const cw = (rect.width - padL) / Math.max(1, xs.length);
    const ch = (rect.height - padB - padT) / Math.max(1, bounds.length);
    const c = Math.floor((e.clientX - rect.left - padL) / cw);
    const r = Math.floor((rect.height - padB - (e.clientY - rect.top)) / ch);
    if (c < 0 || c >= xs.length || r < 0 || r >= bounds.length) { tip.style.display = 'none'; return; }
    const from = r === 0 ? 0 : bounds[r - 1];
    tip.innerHTML = '<div class="t">' + fmtTime(xs[c] * 1000) + '</div><div class="r">' +
      esc(fmt(from, unit) + ' – ' + (bounds[r] === Infinity ? '+Inf' : fmt(bounds[r], unit))) +
      '<span class="v">' + counts[r][c].toFixed(counts[r][c] < 10 ? 1 : 0) + ' requests</span></div>';
    tip.style.display = 'block';
    tip.style.left = Math.min(e.clientX - rect.left + 12, rect.width - tip.offsetWidth) + 'px';
    tip.style.top = Math.max(0, e.clientY - rect.top - 30) + 'px';
  });
  canvas.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
  draw();
  const ro = new ResizeObserver(() => draw());
  ro.observe(el);
  return { destroy() { ro.disconnect(); } };
}

/**
 * One heatmap per engine where the series come marked by `infermon_engine` (a selection spanning
 * engines whose buckets have different bounds, which the server never sums), each on its own
 * bounds under the engine's name; one heatmap as above otherwise.
 */
export function engineHeatmaps(el, xs, series, { unit }) {
  const byEngine = new Map();
  series.forEach((s) => {
    const engine = s.labels.infermon_engine || '';
    if (!byEngine.has(engine)) byEngine.set(engine, []);
    byEngine.get(engine).push({ le: s.labels.le, values: s.values });
  });
  if (byEngine.size <= 1) return heatmap(el, xs, [...byEngine.values()][0] || [], { unit });
  el.textContent = '';
  const parts = [];
  [...byEngine.keys()].sort().forEach((engine) => {
    const box = document.createElement('div');
    box.className = 'heat-engine';
    box.dataset.engine = engine;
    const cap = document.createElement('div');
    cap.className = 'heat-caption';
    cap.textContent = engine + ' (its own buckets)';
    const area = document.createElement('div');
    box.append(cap, area);
    el.append(box);
    parts.push(heatmap(area, xs, byEngine.get(engine), { unit, height: 120 }));
  });
  return { destroy() { parts.forEach((p) => p.destroy()); } };
}
