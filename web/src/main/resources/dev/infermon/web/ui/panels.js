// One dashboard panel: its card, its one request, and how it draws (chart, heatmap, the reason it
// is empty, or the error; a per-pod chart cut to its top series says so). Panel data comes from
// the LLM layer's dashboard API; `normalize` is the single place that knows its JSON shape.
import { api, catalogFamilyNames } from './api.js';
import { timeChart } from './chart.js';
import { engineHeatmaps } from './heatmap.js';
import { esc, legend, unitLabel } from './format.js';

/** What to do about an empty panel, by the kind of reason the API gives (EmptyReason.Kind). */
export function todoFor(r) {
  switch (String(r.kind || '').toUpperCase()) {
    case 'NOT_EXPOSED':
      return r.version ? 'Run ' + (r.engine || 'the engine') + ' ' + r.version + ' or later to get this panel; until then it does not apply to these pods.'
        // Without a release the reason is either "this engine never has it" or "the page lacks a
        // family its siblings imply" (cut, relabelled, proxied): the line must be true for both.
        : 'Where the engine never has this metric the panel does not apply to these pods; where the reason says the page is incomplete, check what drops names on the way (relabelling, a proxy, a cut page).';
    case 'BEHIND_FLAG':
      return 'Enable ' + (r.flag || 'the flag named above') + ' on ' + (r.engine || 'the engine') + ' to expose the metric.';
    case 'NOT_ATTRIBUTED':
      // AMD's exporter reads the kubelet's pod-resources socket, which its Helm chart mounts
      // (helm-charts/templates/daemonsets.yaml); its pod label is empty without it
      return r.engine === 'amdgpu'
        ? "Run AMD's device-metrics-exporter with the kubelet's pod-resources directory mounted (its Helm chart does) so its GPUs carry the pod they serve."
        : 'Run dcgm-exporter with Kubernetes pod attribution so its GPUs carry the pod they serve.';
    case 'REMOVED':
      return 'The release these pods run no longer has this metric: the panel does not apply to them.';
    case 'NO_TRAFFIC':
      return 'No requests reached these pods in the window: send traffic or widen the time range.';
    case 'NO_MATCH':
      return 'The metric moves but the query selects none of its series: clear the model filter, or check the labels relabelling sets.';
    case 'TARGET_DOWN':
      return 'The targets behind this panel are down: open the Targets page to see the scrape error.';
    case 'NO_TARGETS':
      return 'No target matches the filters: clear a filter, or check discovery on the Targets page.';
    case 'QUERY_ERROR':
      return 'Open the query in Explore (PromQL below) to see the error in place.';
    case 'NOT_CONFIGURED':
      return 'Set what the reason names in the configuration (llm.cost) and reload infermon.';
    case 'NO_ROUTER':
      return 'Nothing to do unless a router or gateway runs in front of these pods: then scrape it (production-stack router, llm-d EPP, SGLang Model Gateway) and this level fills.';
    default:
      return r.hint || 'Widen the time range or clear a filter; the Targets page shows whether the pods are scraped.';
  }
}

function values(s, xs, start, step) {
  const out = new Array(xs.length).fill(null);
  const put = (t, v) => {
    const i = Math.round((t - start) / step);
    const f = v === null ? null : typeof v === 'number' ? v : v === '+Inf' ? Infinity : v === '-Inf' ? -Infinity : parseFloat(v);
    if (i >= 0 && i < xs.length && f !== null && Number.isFinite(f)) out[i] = f;
  };
  if (typeof s.start === 'number' && s.step === step * 1000) {
    // compact on the window's own grid: an offset, then a copy (4,461 series of a full page)
    const vs = s.values || [];
    const off = Math.round((s.start / 1000 - start) / step);
    const from = Math.max(0, -off);
    const to = Math.min(vs.length, xs.length - off);
    for (let i = from; i < to; i++) {
      const v = vs[i];
      if (typeof v === 'number') out[off + i] = v;
      else if (v !== null) put(start + (off + i) * step, v);
    }
  } else if (typeof s.start === 'number' && typeof s.step === 'number') {
    // compact on another step: one value per step from start (ms), null where there is no point
    const vs = s.values || [];
    for (let i = 0; i < vs.length; i++) if (vs[i] !== null) put((s.start + i * s.step) / 1000, vs[i]);
  } else if (Array.isArray(s.timestamps)) {
    s.timestamps.forEach((t, i) => put(t / 1000, s.values[i]));
  } else {
    for (const [t, v] of s.values || []) put(t, v);
  }
  return out;
}

/**
 * The API's panel JSON → {spec, queries: [{legend, expr, total, series: [{labels, label, values}]}],
 * status, reasons}. Series arrive compact as {labels, start (ms), step (ms), values (numbers,
 * "NaN"/"+Inf" strings, null for a gap)}, as {labels, timestamps (ms), values} when off the grid,
 * or as Prometheus's {metric, values: [[s, "v"]]}; values are aligned on the window's step grid. A
 * summary series ({labels, last, spark}: summary=true) becomes {labels, label, values: the
 * sparkline's points, last}.
 */
export function normalize(data, xs, start, step) {
  const queries = (data.queries || []).map((q) => {
    const series = (q.series || q.result || []).map((s) => {
      const labels = s.labels || s.metric || {};
      if (Array.isArray(s.spark)) {
        // a table's summary (summary=true): the last value and a sparkline, not on the grid
        const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
        return { labels, label: legend(q.legend || '', labels), values: s.spark.map(num), last: num(s.last) };
      }
      return { labels, label: legend(q.legend || '', labels), values: values(s, xs, start, step) };
    });
    // total: the series the query returned before the server kept its `top` (>= series.length)
    const total = typeof q.total === 'number' ? q.total : series.length;
    return { legend: q.legend || '', expr: q.promql || q.expr || '', series, total, warnings: q.warnings || [] };
  });
  const reasons = data.reasons || [];
  return { spec: data.panel || null, queries, status: String(data.status || '').toUpperCase(), reasons };
}

function sentence(r) {
  const who = r.engine ? r.engine + ': ' : '';
  return who + (r.message || String(r.kind || '').toLowerCase().replace(/_/g, ' '));
}

/**
 * `text` as HTML with every catalog family it names (`names`: spelling → family, api.js
 * catalogFamilyNames) linked to the family's entry on the Engines page; the rest escaped.
 */
export function linkFamilies(text, names) {
  const map = names instanceof Map ? names : new Map(Object.entries(names || {}));
  let out = '';
  let last = 0;
  const word = /[A-Za-z_][A-Za-z0-9_:]*/g;
  let m;
  while ((m = word.exec(text)) !== null) {
    const w = m[0].replace(/:+$/, '');
    if (!map.has(w)) continue;
    out += esc(text.slice(last, m.index)) + '<a data-nav class="family" href="/engines#family-' +
      esc(encodeURIComponent(map.get(w))) + '">' + esc(w) + '</a>';
    last = m.index + w.length;
  }
  return out + esc(text.slice(last));
}

/** Links the family names in the reasons under `el` once the catalog's names are known. */
function linkReasons(el) {
  catalogFamilyNames().then((names) => {
    el.querySelectorAll('[data-sentence]').forEach((x) => { x.innerHTML = linkFamilies(x.dataset.sentence, names); });
  });
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
    if (d.status === 'EMPTY' || all.every((s) => s.values.every((v) => v == null))) {
      el.dataset.state = 'empty';
      const r = d.reasons[0] || { kind: '', message: 'No data in this time range.' };
      body.innerHTML = '<div class="empty" role="note"><div class="reason" data-kind="' + esc(r.kind || '') + '" data-sentence="' +
        esc(sentence(r)) + '">' + esc(sentence(r)) + '</div><div class="todo">' + esc(todoFor(r)) + '</div>' +
        d.reasons.slice(1).map((x) => '<div class="todo" data-sentence="' + esc(sentence(x)) + '">' + esc(sentence(x)) + '</div>').join('') + '</div>';
      linkReasons(body);
      return;
    }
    el.dataset.state = 'drawn';
    el.dataset.series = String(all.length);
    if (spec.kind === 'heatmap' || spec.kind === 'HEATMAP') {
      drawn = engineHeatmaps(body, win.xs, all, { unit: spec.unit });
    } else {
      drawn = timeChart(body, win.xs, all, { unit: spec.unit, onZoom });
    }
    const cut = topNote(spec, d);
    if (cut) body.appendChild(cut);
    if (d.reasons.length) {
      const note = document.createElement('p');
      note.className = 'help partial';
      note.textContent = 'Partial: ' + d.reasons.map(sentence).join(' · ');
      note.dataset.sentence = note.textContent;
      body.appendChild(note);
      linkReasons(body);
    }
  }

  return { el, spec, refresh, destroy: () => { gen++; clear(); }, redraw: null };
}

/**
 * The note under a per-pod or per-GPU chart the server cut to its top series: how many of how
 * many it draws, ranked how, and how to see the others; null when nothing was cut. data-shown is
 * the most series a query kept, data-total the most it had.
 */
export function topNote(spec, d) {
  const cut = d.queries.filter((q) => q.total > q.series.length);
  if (!cut.length) return null;
  const shown = Math.max(...cut.map((q) => q.series.length));
  const total = Math.max(...cut.map((q) => q.total));
  const what = (spec.groupBy || []).includes('gpu') ? 'GPUs' : 'pods';
  const how = spec.rank === 'low' ? 'the lowest dips (low is bad here)' : 'the highest peaks';
  const note = document.createElement('p');
  note.className = 'help top-note';
  note.dataset.shown = String(shown);
  note.dataset.total = String(total);
  note.textContent = shown + ' of ' + total.toLocaleString('en-US') + ' ' + what + ' drawn' +
    (d.queries.length > 1 ? ' per line' : '') + ', ' + how + ' in the window; narrow with a filter (namespace, workload, model) ' +
    'to see the others, or add top=all to the URL.';
  return note;
}

/**
 * How many series a per-pod or per-GPU chart asks for (the API's `top`, the worst first; `?top=` in
 * the page's URL overrides it, `top=all` draws every one). Twenty: a chart of more lines is
 * unreadable, and every per-pod series of a large fleet made the dashboard's JSON 15 MB at 100 pods
 * and 144 MB at 1,000 over 6 h (docs/rationale.md, "Per-pod panels: the worst pods"); the pod
 * and GPU tables still list every pod, from their own compact summary.
 */
export const TOP = 20;

/**
 * At most this many requests share the panels that come into view together. One: the server runs
 * a request's queries in parallel itself, and with two the page drew the first answer while the
 * browser read the second, which took the full dashboard 1.7 s instead of 0.9 s
 * (docs/benchmarks.md has the measurements behind the number).
 */
export const PARALLEL = 1;

/** A request's parameters: the window's, and for a chart its top, for a table its summary. */
function windowParams(win, mode) {
  const extra = mode === 'summary' ? { summary: 'true' } : { top: win.top || undefined };
  return Object.assign({ start: win.start, end: win.end, step: win.step, quantile: win.quantile }, win.filters, extra);
}

/**
 * Loads panel data once per (panel, window, quantile, filters, mode): mode 'chart' (a card: the
 * window's top series) or 'summary' (a pod table: every series, its last value and a sparkline).
 * Panels asked for in the same tick (those that scroll into view together) with the same window
 * and mode are dealt round-robin into at most PARALLEL requests.
 */
export function panelLoader(signalFor) {
  const cache = new Map();
  let queue = [];
  let timer = 0;

  function flush() {
    timer = 0;
    const groups = new Map();
    for (const item of queue) {
      const g = item.win.key + '|' + item.mode;
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(item);
    }
    queue = [];
    for (const items of groups.values()) {
      const n = Math.min(PARALLEL, items.length);
      for (let k = 0; k < n; k++) {
        const chunk = items.filter((x, i) => i % n === k);
        const win = chunk[0].win;
        api.panels(chunk.map((x) => x.spec.id), windowParams(win, chunk[0].mode), signalFor()).then((r) => {
          for (const x of chunk) x.resolve(normalize(pick(r.data, x.spec.id), win.xs, win.start, win.step));
        }, (e) => {
          for (const x of chunk) { cache.delete(x.key); x.reject(e); }
        });
      }
    }
  }

  return {
    clear() { cache.clear(); queue = []; },
    load(spec, win, mode = 'chart') {
      const key = spec.id + '|' + win.key + '|' + mode;
      if (!cache.has(key)) {
        cache.set(key, new Promise((resolve, reject) => queue.push({ spec, win, mode, key, resolve, reject })));
        if (!timer) timer = setTimeout(flush, 0);
      }
      return cache.get(key);
    },
  };
}

/** The panel's result out of a list of panels. */
function pick(data, id) {
  if (!Array.isArray(data.panels)) return data;
  return data.panels.find((p) => (p.panel || p).id === id) || { queries: [], status: 'EMPTY', reasons: [] };
}

