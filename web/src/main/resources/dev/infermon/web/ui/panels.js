// One dashboard panel: its card, its one request, and how it draws (chart, heatmap, the reason it
// is empty, or the error). Panel data comes from the LLM layer's dashboard API; `normalize` is the
// single place that knows its JSON shape.
import { api } from './api.js';
import { timeChart } from './chart.js';
import { heatmap } from './heatmap.js';
import { esc, legend, unitLabel } from './format.js';

/** What to do about an empty panel, by the kind of reason the API gives. */
const TODO = {
  not_exposed: 'This engine or version does not expose the metric; upgrade the engine, or read the panel as not applicable here.',
  flag: 'Start the engine with the flag named above to expose the metric.',
  no_traffic: 'No requests have reached these pods in the window yet; send traffic or widen the time range.',
  target_down: 'The targets behind this panel are down; open the Targets page to see the scrape error.',
  no_targets: 'No target matches the filters; clear a filter or check discovery on the Targets page.',
};

/** The API's panel JSON → {queries: [{legend, expr, series: [{labels, label, values}]}], empty}. */
export function normalize(data, xs, start, step) {
  const queries = (data.queries || []).map((q) => {
    const result = q.result || (q.data && q.data.result) || [];
    const series = result.map((s) => {
      const values = new Array(xs.length).fill(null);
      for (const [t, v] of s.values || []) {
        const i = Math.round((t - start) / step);
        if (i >= 0 && i < xs.length) values[i] = parseFloat(v);
      }
      return { labels: s.metric || {}, label: legend(q.legend || '', s.metric || {}), values };
    });
    return { legend: q.legend || '', expr: q.expr || q.promql || q.query || '', series };
  });
  let empty = data.empty || null;
  if (!empty && (data.reason || data.emptyReason)) {
    empty = { reason: data.reason || data.emptyReason, kind: data.reasonKind || data.kind_of_reason, hint: data.hint };
  }
  return { queries, empty, warnings: data.warnings || [] };
}

/** The card for `spec`; `load(spec)` resolves to normalized data (shared with the pod tables). */
export function panelCard(spec, { load, onZoom, onDrawn }) {
  const el = document.createElement('section');
  el.className = 'panel';
  el.id = 'panel-' + spec.id.replace(/\./g, '-');
  el.dataset.panel = spec.id;
  el.dataset.state = 'idle';
  el.setAttribute('aria-labelledby', el.id + '-title');
  el.innerHTML = '<header><h3 id="' + el.id + '-title">' + esc(spec.title) + '</h3><span class="unit">' +
    esc(unitLabel(spec.unit)) + '</span></header>' +
    (spec.description ? '<p class="help">' + esc(spec.description) + '</p>' : '') +
    '<div class="body"><div class="loading">Loading…</div></div><details><summary>PromQL</summary><div class="q"></div></details>';
  const body = el.querySelector('.body');
  let drawn = null;
  let gen = 0;

  async function refresh(win) {
    const my = ++gen;
    el.dataset.state = 'loading';
    try {
      const d = await load(spec, win);
      if (my !== gen) return;
      draw(d, win);
    } catch (e) {
      if (my !== gen || e.name === 'AbortError') return;
      clear();
      el.dataset.state = 'error';
      body.innerHTML = '<div class="empty"><div class="reason error">' + esc(e.message) + '</div>' +
        '<div class="todo">' + (e.status === 404 ? 'This server has no dashboard API.' : 'Retry with r, or open the query in Explore.') + '</div></div>';
    }
    onDrawn(spec.id);
  }

  function clear() {
    if (drawn) drawn.destroy();
    drawn = null;
  }

  function draw(d, win) {
    clear();
    el.querySelector('.q').innerHTML = d.queries.map((q) => '<p><code>' + esc(q.expr) + '</code> <a data-nav href="/explore?' +
      new URLSearchParams({ expr: q.expr }) + '">Explore</a></p>').join('');
    const all = [];
    d.queries.forEach((q) => q.series.forEach((s) => all.push(s)));
    if (d.empty || all.length === 0 || all.every((s) => s.values.every((v) => v == null))) {
      el.dataset.state = 'empty';
      const reason = d.empty ? d.empty.reason : 'No data in this time range.';
      const todo = (d.empty && d.empty.hint) || TODO[(d.empty && d.empty.kind) || ''] ||
        'Widen the time range or clear a filter; the Targets page shows whether the pods are scraped.';
      body.innerHTML = '<div class="empty" role="note"><div class="reason">' + esc(reason) + '</div><div class="todo">' +
        esc(todo) + '</div></div>';
      return;
    }
    el.dataset.state = 'drawn';
    el.dataset.series = String(all.length);
    if (spec.kind === 'heatmap' || spec.kind === 'HEATMAP') {
      drawn = heatmap(body, win.xs, all.map((s) => ({ le: s.labels.le, values: s.values })), { unit: spec.unit });
    } else {
      drawn = timeChart(body, win.xs, all, { unit: spec.unit, onZoom });
    }
  }

  return { el, spec, refresh, destroy: () => { gen++; clear(); }, redraw: null };
}

/** Loads panel data once per (panel, window, quantile, filters); the tables and cards share it. */
export function panelLoader(signalFor) {
  const cache = new Map();
  return {
    clear() { cache.clear(); },
    load(spec, win) {
      const key = spec.id + '|' + win.key;
      if (!cache.has(key)) {
        const p = api.panel(spec.id, Object.assign({ start: win.start, end: win.end, step: win.step, quantile: win.quantile }, win.filters), signalFor())
          .then((r) => normalize(r.data, win.xs, win.start, win.step));
        p.catch(() => cache.delete(key));
        cache.set(key, p);
      }
      return cache.get(key);
    },
  };
}
