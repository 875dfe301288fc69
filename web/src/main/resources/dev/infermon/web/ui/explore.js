// Explore: a PromQL box with metric-name completion (stored names and the catalog's), syntax
// errors shown at their line and column, and the result as a graph (range query) or a table
// (instant query). The expression and view are kept in the URL.
import { api, parsePosition } from './api.js';
import { timeChart } from './chart.js';
import { esc, fmt, labelString } from './format.js';
import * as st from './state.js';

const IDENT = /[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const MAX_SUGGESTIONS = 12;

/** The metric-name prefix ending at `pos`, or null inside braces, strings or after a digit. */
export function wordAt(text, pos) {
  const before = text.slice(0, pos);
  const m = IDENT.exec(before);
  if (!m) return null;
  const open = (before.match(/\{/g) || []).length - (before.match(/\}/g) || []).length;
  const quotes = (before.match(/"/g) || []).length;
  if (open > 0 || quotes % 2 === 1) return null;
  return { word: m[0], start: pos - m[0].length };
}

export function suggest(names, word) {
  const w = word.toLowerCase();
  const starts = [];
  const contains = [];
  for (const n of names) {
    const l = n.name.toLowerCase();
    if (l.startsWith(w)) starts.push(n); else if (l.includes(w)) contains.push(n);
  }
  return starts.concat(contains).slice(0, MAX_SUGGESTIONS);
}

export function mount(main) {
  const p = st.params();
  main.innerHTML = `<h1>Explore</h1>
  <div class="editor"><label for="expr" class="muted">PromQL expression (Ctrl+Enter runs; / focuses)</label>
    <textarea id="expr" data-slash spellcheck="false" autocomplete="off" aria-autocomplete="list" aria-controls="completion" aria-expanded="false"></textarea>
    <ul id="completion" class="complete" role="listbox" hidden></ul></div>
  <div class="toolbar" style="margin-top:8px"><button type="button" class="btn primary" id="run">Execute</button>
    <span class="seg" role="group" aria-label="Time range">${Object.keys(st.RANGES).map((r) => `<button type="button" class="btn" data-range="${r}" aria-pressed="false">${r}</button>`).join('')}</span>
    <span class="muted" id="explore-status" aria-live="polite"></span></div>
  <div id="explore-error-box"></div>
  <div class="tabs" role="tablist" aria-label="Result view"><button type="button" role="tab" data-view="graph" id="tab-graph">Graph</button><button type="button" role="tab" data-view="table" id="tab-table">Table</button></div>
  <div id="explore-result" class="panel" role="tabpanel"><p class="muted">Type an expression and press Execute.</p></div>`;
  const box = main.querySelector('#expr');
  const list = main.querySelector('#completion');
  const out = main.querySelector('#explore-result');
  const errBox = main.querySelector('#explore-error-box');
  const status = main.querySelector('#explore-status');
  let names = [];
  let chart = null;
  let sel = -1;
  let items = [];
  let controller = new AbortController();
  box.value = p.get('expr') || '';

  Promise.allSettled([api.labelValues('__name__', null, controller.signal), api.catalogNames(controller.signal)]).then(([stored, catalog]) => {
    const seen = new Map();
    if (catalog.status === 'fulfilled') {
      for (const n of catalog.value.data || []) {
        const name = typeof n === 'string' ? n : n.name;
        seen.set(name, { name, note: typeof n === 'string' ? 'catalog' : (n.engine || 'catalog') });
      }
    }
    if (stored.status === 'fulfilled') for (const n of stored.value.data) seen.set(n, { name: n, note: seen.has(n) ? seen.get(n).note + ', stored' : 'stored' });
    names = [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
    // Someone already typing gets the list as soon as the names arrive.
    if (document.activeElement === box && box.value) complete();
  });

  function view() {
    const v = st.params().get('view');
    return v === 'table' ? 'table' : 'graph';
  }

  function syncTabs() {
    for (const t of main.querySelectorAll('[data-view]')) t.setAttribute('aria-selected', String(t.dataset.view === view()));
    const rk = st.rangeKey();
    for (const b of main.querySelectorAll('[data-range]')) b.setAttribute('aria-pressed', String(b.dataset.range === rk));
  }

  function closeList() {
    list.hidden = true;
    box.setAttribute('aria-expanded', 'false');
    sel = -1;
  }

  function complete() {
    const w = wordAt(box.value, box.selectionStart);
    items = w && w.word.length >= 1 ? suggest(names, w.word) : [];
    if (!items.length || (items.length === 1 && items[0].name === w.word)) { closeList(); return; }
    sel = 0;
    list.innerHTML = items.map((n, i) => `<li role="option" id="opt-${i}" aria-selected="${i === sel}" data-i="${i}">${esc(n.name)}<small>${esc(n.note)}</small></li>`).join('');
    list.hidden = false;
    box.setAttribute('aria-expanded', 'true');
    box.setAttribute('aria-activedescendant', 'opt-0');
  }

  function accept(i) {
    const w = wordAt(box.value, box.selectionStart);
    if (!w || !items[i]) return;
    const name = items[i].name;
    box.value = box.value.slice(0, w.start) + name + box.value.slice(box.selectionStart);
    box.selectionStart = box.selectionEnd = w.start + name.length;
    closeList();
    box.focus();
  }

  function move(d) {
    sel = (sel + d + items.length) % items.length;
    for (const li of list.children) li.setAttribute('aria-selected', String(Number(li.dataset.i) === sel));
    box.setAttribute('aria-activedescendant', 'opt-' + sel);
    list.children[sel].scrollIntoView({ block: 'nearest' });
  }

  box.addEventListener('input', complete);
  // Closing waits for a click on the list to land; focus that came back keeps the list open.
  box.addEventListener('blur', () => setTimeout(() => { if (document.activeElement !== box) closeList(); }, 150));
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); closeList(); run(true); return; }
    if (list.hidden) return;
    if (e.key === 'ArrowDown') { e.preventDefault(); move(1); } else if (e.key === 'ArrowUp') { e.preventDefault(); move(-1); } else if (e.key === 'Enter' || e.key === 'Tab') { e.preventDefault(); accept(sel); } else if (e.key === 'Escape') { e.preventDefault(); closeList(); }
  });
  list.addEventListener('mousedown', (e) => {
    const li = e.target.closest('li');
    if (li) { e.preventDefault(); accept(Number(li.dataset.i)); }
  });

  function showError(e, expr) {
    const pos = parsePosition(e.message);
    if (!pos) {
      errBox.innerHTML = '<pre class="perr" id="explore-error"><span class="msg">' + esc(e.message) + '</span></pre>';
      return;
    }
    const lines = expr.split('\n');
    const line = Array.from(lines[pos.line - 1] || '');
    const caret = ' '.repeat(Math.max(0, pos.column - 1)) + '^';
    errBox.innerHTML = `<pre class="perr" id="explore-error" role="alert" data-line="${pos.line}" data-column="${pos.column}">` +
      `<span class="msg">Line ${pos.line}, column ${pos.column}: ${esc(pos.message)}</span>\n${esc(line.join(''))}\n<span class="caret">${caret}</span></pre>`;
    // Put the text cursor where the problem starts.
    let offset = 0;
    for (let i = 0; i < pos.line - 1; i++) offset += lines[i].length + 1;
    offset += Array.from(lines[pos.line - 1] || '').slice(0, pos.column - 1).join('').length;
    box.focus();
    box.setSelectionRange(offset, offset);
  }

  async function run(push) {
    const expr = box.value.trim();
    if (push) st.update({ expr: expr || null });
    errBox.textContent = '';
    if (!expr) return;
    controller.abort();
    controller = new AbortController();
    syncTabs();
    status.textContent = 'Running…';
    const t0 = performance.now();
    try {
      if (view() === 'table') {
        const r = await api.query(expr, undefined, controller.signal);
        renderTable(r.data);
        status.textContent = 'Instant query, ' + Math.round(performance.now() - t0) + ' ms' + warn(r.warnings);
      } else {
        const w = st.timeWindow();
        const r = await api.queryRange(expr, w.start, w.end, w.step, controller.signal);
        renderGraph(r.data, w);
        status.textContent = 'Range query, ' + r.data.result.length + ' series, step ' + w.step + ' s, ' + Math.round(performance.now() - t0) + ' ms' + warn(r.warnings);
      }
    } catch (e) {
      if (e.name === 'AbortError') return;
      status.textContent = '';
      showError(e, box.value.trim());
    }
  }

  function warn(ws) {
    return ws && ws.length ? ' · warnings: ' + ws.join('; ') : '';
  }

  function destroyChart() {
    if (chart) chart.destroy();
    chart = null;
  }

  function renderGraph(data, w) {
    destroyChart();
    if (data.resultType !== 'matrix' || !data.result.length) {
      out.innerHTML = '<div class="empty"><div class="reason">The query returned no series.</div><div class="todo">Check the metric name (completion lists what is stored) and the label matchers.</div></div>';
      return;
    }
    const xs = [];
    for (let t = w.start; t <= w.end + 1e-9; t += w.step) xs.push(t);
    const series = data.result.map((s) => {
      const values = new Array(xs.length).fill(null);
      for (const [t, v] of s.values || []) {
        const i = Math.round((t - w.start) / w.step);
        if (i >= 0 && i < xs.length) values[i] = parseFloat(v);
      }
      return { label: labelString(s.metric), values };
    });
    out.textContent = '';
    const body = document.createElement('div');
    out.appendChild(body);
    chart = timeChart(body, xs, series, {
      unit: 'none',
      onZoom: (from, to) => {
        if (st.params().get('from') === String(from)) return;
        st.update({ from, to });
        syncTabs();
        run(false);
      },
    });
  }

  function renderTable(data) {
    destroyChart();
    let rows = [];
    if (data.resultType === 'vector') rows = data.result.map((s) => [labelString(s.metric), s.value[1]]);
    else if (data.resultType === 'matrix') rows = data.result.map((s) => [labelString(s.metric), s.values.map((v) => v[1] + ' @' + v[0]).join('\n')]);
    else rows = [[data.resultType, String(data.result[1])]];
    out.innerHTML = rows.length ? '<table class="data" id="explore-table"><thead><tr><th scope="col">Series</th><th scope="col">Value</th></tr></thead><tbody>' +
      rows.map((r) => `<tr><td><code>${esc(r[0])}</code></td><td class="num">${esc(isFinite(r[1]) ? fmt(parseFloat(r[1]), 'none') + ' (' + r[1] + ')' : r[1])}</td></tr>`).join('') + '</tbody></table>'
      : '<div class="empty"><div class="reason">The query returned no series.</div><div class="todo">Check the metric name and the label matchers.</div></div>';
  }

  main.querySelector('#run').addEventListener('click', () => run(true));
  main.querySelector('[role="tablist"]').addEventListener('click', (e) => {
    const t = e.target.closest('[data-view]');
    if (!t) return;
    st.update({ view: t.dataset.view }, true);
    run(false);
    syncTabs();
  });
  main.querySelector('.seg').addEventListener('click', (e) => {
    const b = e.target.closest('[data-range]');
    if (!b) return;
    st.update({ range: b.dataset.range, from: null, to: null }, true);
    syncTabs();
    run(false);
  });
  syncTabs();
  if (box.value) run(false); else box.focus();
  return {
    unmount() { controller.abort(); destroyChart(); },
    update() { box.value = st.params().get('expr') || ''; syncTabs(); run(false); },
    refresh() { run(false); },
  };
}
