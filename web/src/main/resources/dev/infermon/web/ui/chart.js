// Time-series charts on uPlot: unit-aware axes and tooltips, a legend whose entries toggle their
// series (buttons, so the keyboard reaches them), drag-to-zoom reported to the page, and cursors
// synchronised across every chart of a page so that the causal chain reads on one time axis.
import uPlot from './vendor/uPlot.esm.js';
import { axisRange, durationIncrs, durationTicks, fmt, fmtTicks, fmtTime, esc, isDuration } from './format.js';

export const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f', '#b07aa1', '#76b7b2',
  '#edc948', '#ff9da7', '#9c755f', '#8cd17d', '#499894', '#d37295'];
const MAX_TIP_ROWS = 10;
const HEIGHT = 190;
const LEGEND_FIRST = 40;

// Theme colours, read once per theme (app.js fires 'themechange' on a toggle and on the system's
// change): getComputedStyle forces a style recalculation of the whole page, three per chart.
const cssCache = new Map();
window.addEventListener('themechange', () => cssCache.clear());
function css(name) {
  if (!cssCache.has(name)) {
    cssCache.set(name, getComputedStyle(document.documentElement).getPropertyValue(name).trim());
  }
  return cssCache.get(name);
}

function tooltip(unit) {
  let tip;
  return {
    hooks: {
      init: (u) => {
        tip = document.createElement('div');
        tip.className = 'tip';
        tip.setAttribute('role', 'status');
        u.over.parentNode.appendChild(tip);
      },
      setCursor: (u) => {
        const i = u.cursor.idx;
        if (i == null || u.cursor.left < 0) {
          tip.style.display = 'none';
          return;
        }
        const rows = [];
        for (let s = 1; s < u.series.length; s++) {
          const v = u.data[s][i];
          if (u.series[s].show && v != null) rows.push([u.series[s].label, v, u.series[s].stroke()]);
        }
        rows.sort((a, b) => b[1] - a[1]);
        const more = rows.length > MAX_TIP_ROWS ? rows.length - MAX_TIP_ROWS : 0;
        tip.innerHTML = '<div class="t">' + fmtTime(u.data[0][i] * 1000) + '</div>' +
          rows.slice(0, MAX_TIP_ROWS).map((r) => '<div class="r"><span class="sw" style="background:' +
            r[2] + ';width:10px;height:3px;display:inline-block"></span>' + esc(r[0]) +
            '<span class="v">' + esc(fmt(r[1], unit)) + '</span></div>').join('') +
          (more ? '<div class="t">+' + more + ' more</div>' : '') +
          (rows.length ? '' : '<div class="t">no value</div>');
        tip.style.display = 'block';
        const left = u.over.offsetLeft + u.cursor.left;
        const flip = left + tip.offsetWidth + 16 > u.over.parentNode.clientWidth;
        tip.style.left = (flip ? left - tip.offsetWidth - 12 : left + 12) + 'px';
        tip.style.top = Math.max(0, u.over.offsetTop + u.cursor.top - tip.offsetHeight / 2) + 'px';
      },
    },
  };
}

/**
 * Draws `series` ([{label, values}], values aligned with `xs` in seconds) into `el`.
 * Returns {destroy()}; `onZoom(fromMs, toMs)` is called after a horizontal drag.
 */
export function timeChart(el, xs, series, { unit, onZoom, sync = 'infermon' }) {
  el.textContent = '';
  const plotEl = document.createElement('div');
  const legendEl = document.createElement('div');
  legendEl.className = 'legend';
  el.append(plotEl, legendEl);
  const axis = { stroke: css('--muted'), grid: { stroke: css('--grid'), width: 1 }, ticks: { stroke: css('--grid') } };
  const opts = {
    width: Math.max(200, el.clientWidth),
    height: HEIGHT,
    legend: { show: false },
    cursor: { sync: { key: sync }, drag: { x: true, y: false, setScale: false }, points: { size: 5 } },
    scales: {
      x: { time: true },
      // a share on 0-100 %, a duration from 0 (format.js axisRange); anything else as uPlot pads it
      y: axisRange(unit, 0, 0) ? { range: (u, min, max) => axisRange(unit, min, max) || uPlot.rangeNum(min, max, 0.1, true) } : {},
    },
    axes: [
      Object.assign({}, axis, { space: 70 }),
      Object.assign({}, axis, isDuration(unit) ? { incrs: durationIncrs(unit) } : {}, {
        values: (u, splits) => (isDuration(unit) ? durationTicks(splits, unit) : fmtTicks(splits, unit)),
        // wide enough for the longest tick label (about 7 px per character at 12 px), and at least
        // 80 px so that stacked charts share one x position per time (the causal chain)
        size: (u, values) => Math.max(80, 18 + 7 * Math.max(4, ...(values || []).map((v) => String(v).length))),
      }),
    ],
    series: [{}].concat(series.map((s, i) => ({
      label: s.label,
      stroke: PALETTE[i % PALETTE.length],
      width: 1.5,
      points: { show: false },
      value: (u, v) => fmt(v, unit),
    }))),
    plugins: [tooltip(unit)],
    hooks: {
      // what the canvas shows, as text the page (and its tests) can read: the value axis's range
      // and tick labels
      draw: [(u) => {
        const y = u.scales.y;
        el.dataset.yMin = String(y.min);
        el.dataset.yMax = String(y.max);
        el.dataset.yTicks = (u.axes[1]._values || []).join('|');
      }],
      setSelect: [(u) => {
        if (u.select.width > 4 && onZoom) {
          const from = u.posToVal(u.select.left, 'x');
          const to = u.posToVal(u.select.left + u.select.width, 'x');
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          onZoom(Math.round(from * 1000), Math.round(to * 1000));
        }
      }],
    },
  };
  const u = new uPlot(opts, [xs].concat(series.map((s) => s.values)), plotEl);
  // The legend as HTML and one listener. Its box shows three rows; a GPU panel has hundreds of
  // entries, so the first LEGEND_FIRST are written now and the rest when the box is scrolled,
  // hovered or focused (Tab reaches them): 4,461 buttons were a good part of drawing a full page.
  const entry = (s, i) => '<button type="button" aria-pressed="true" title="Show or hide this series" data-i="' +
    i + '"><span class="sw" style="background:' + PALETTE[i % PALETTE.length] + '"></span>' + esc(s.label) + '</button>';
  legendEl.innerHTML = series.slice(0, LEGEND_FIRST).map(entry).join('');
  if (series.length > LEGEND_FIRST) {
    const rest = () => {
      ['scroll', 'pointerenter', 'focusin'].forEach((t) => legendEl.removeEventListener(t, rest));
      legendEl.insertAdjacentHTML('beforeend', series.slice(LEGEND_FIRST).map((s, i) => entry(s, i + LEGEND_FIRST)).join(''));
    };
    ['scroll', 'pointerenter', 'focusin'].forEach((t) => legendEl.addEventListener(t, rest, { passive: true }));
  }
  legendEl.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-i]');
    if (!b) return;
    const show = b.getAttribute('aria-pressed') !== 'true';
    b.setAttribute('aria-pressed', String(show));
    u.setSeries(Number(b.dataset.i) + 1, { show });
  });
  let pending = 0;
  const ro = new ResizeObserver(() => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      const w = Math.max(200, el.clientWidth);
      if (w !== u.width) u.setSize({ width: w, height: HEIGHT });
    });
  });
  ro.observe(el);
  return { destroy() { ro.disconnect(); u.destroy(); }, plot: u };
}

/**
 * The vertical range of a sparkline over `finite` values: at least 1 % of their magnitude (or 1
 * around 0), centred on them, so a series that only wiggles in its last digits (KV usage of
 * 0.5 ± 1e-12 from float sums) is drawn flat instead of magnified into full-height noise.
 */
export function sparkRange(finite) {
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  const min = Math.max(Math.abs(lo), Math.abs(hi)) * 0.01 || 1;
  if (hi - lo >= min) return [lo, hi];
  const mid = (lo + hi) / 2;
  return [mid - min / 2, mid + min / 2];
}

/** An inline SVG sparkline of `values` (nulls are gaps). */
export function sparkline(values, color = PALETTE[0], w = 84, h = 20) {
  const finite = values.filter((v) => v != null && Number.isFinite(v));
  if (finite.length < 2) return '';
  const [lo, hi] = sparkRange(finite);
  const dx = w / (values.length - 1);
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (v == null || !Number.isFinite(v)) { pen = false; return; }
    const y = h - 1 - ((v - lo) / (hi - lo)) * (h - 2);
    d += (pen ? 'L' : 'M') + (i * dx).toFixed(1) + ' ' + y.toFixed(1);
    pen = true;
  });
  return '<svg class="spark" width="' + w + '" height="' + h + '" viewBox="0 0 ' + w + ' ' + h +
    '" aria-hidden="true"><path d="' + d + '" fill="none" stroke="' + color + '" stroke-width="1.3"/></svg>';
}
