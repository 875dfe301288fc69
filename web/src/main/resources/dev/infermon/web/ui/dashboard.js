// The LLM-inference dashboard: toolbar (filters, time range, quantile, refresh), the levels as
// tabs and the sections as headings, both as the layout API lists them, and the panels, each loaded
// when it scrolls into view with one request. window.__lastPanelDrawnAt (performance.now()) and
// window.__dashboardDone mark the moment the last panel of the view was drawn (bench/ui-dashboard).
import { api } from './api.js';
import { panelCard, panelLoader, TOP } from './panels.js';
import { podTable, tableRows, POD_COLUMNS, GPU_COLUMNS } from './podtable.js';
import { headroomTable } from './headroom.js';
import { esc, fmtTime } from './format.js';
import * as st from './state.js';

function toLocalInput(ms) {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60000);
  return d.toISOString().slice(0, 16);
}

export function mount(main) {
  main.innerHTML = `
  <h1>Dashboard</h1>
  <form class="toolbar" id="dash-toolbar">
    ${Object.keys(st.FILTERS).map((f) => `<label>${f}<select id="filter-${f}" data-filter="${f}"><option value="">all</option></select></label>`).join('')}
    <label>quantile<select id="quantile">${st.QUANTILES.map((q) => `<option value="${q}">p${+q * 100}</option>`).join('')}</select></label>
    <div><span class="muted" style="font-size:12px;display:block">time range</span><span class="seg" role="group" aria-label="Time range" id="ranges">
      ${Object.keys(st.RANGES).map((r) => `<button type="button" class="btn" data-range="${r}" aria-pressed="false">${r}</button>`).join('')}
      <button type="button" class="btn" data-range="custom" aria-pressed="false">custom</button></span></div>
    <span id="custom-range" hidden><label>from<input type="datetime-local" id="from"></label><label>to<input type="datetime-local" id="to"></label>
      <button type="button" class="btn" id="apply-range">Apply</button></span>
    <label>refresh<select id="refresh">${Object.keys(st.REFRESH).map((r) => `<option>${r}</option>`).join('')}</select></label>
    <button type="button" class="btn" id="refresh-now" title="Refresh now (r)">↻ Refresh</button>
  </form>
  <p class="muted" id="window-text" aria-live="polite"></p>
  <div class="tabs" role="tablist" aria-label="Dashboard level"></div>
  <div id="dash-body" role="tabpanel"></div>`;
  const body = main.querySelector('#dash-body');
  let specs = null;
  let layout = null;
  let levels = null; // [{id, title}] in tab order, from the layout API
  let sections = null; // [{id, title, level, wide}] in display order, from the layout API
  let cards = [];
  let tables = [];
  let headrooms = [];
  let timer = 0;
  let controller = new AbortController();
  let observer = null;
  let win = null;
  const loader = panelLoader(() => controller.signal);
  const visible = new Set();

  window.__dashboardDone = false;
  window.__lastPanelDrawnAt = 0;

  function currentWindow() {
    const p = st.params();
    const w = st.timeWindow(p);
    const xs = [];
    for (let t = w.start; t <= w.end + 1e-9; t += w.step) xs.push(t);
    // any quantile the API accepts (0.5 to 0.99), not only the ones the select offers
    const qv = Number(p.get('q'));
    const quantile = qv >= 0.5 && qv <= 0.99 ? p.get('q') : '0.95';
    const filters = st.filters(p);
    const top = st.top(p.get('top'), TOP);
    return Object.assign(w, { xs, quantile, filters, top, key: [w.start, w.end, w.step, quantile, JSON.stringify(filters), top].join('|') });
  }

  function syncToolbar() {
    const p = st.params();
    for (const f of Object.keys(st.FILTERS)) {
      const sel = main.querySelector('#filter-' + f);
      let v = p.get(f) || '';
      const adapter = f === 'model' && v ? p.get(st.ADAPTER.param) : '';
      if (adapter) v = st.adapterChoice(v, adapter);
      if (v && ![...sel.options].some((o) => o.value === v)) sel.add(adapter ? adapterOption(p.get(f), adapter) : new Option(v, v));
      sel.value = v;
    }
    const qsel = main.querySelector('#quantile');
    const q = p.get('q') || '0.95';
    if (![...qsel.options].some((o) => o.value === q) && Number(q) >= 0.5 && Number(q) <= 0.99) qsel.add(new Option('p' + Math.round(Number(q) * 1000) / 10, q));
    qsel.value = q;
    const rk = st.rangeKey(p);
    for (const b of main.querySelectorAll('[data-range]')) b.setAttribute('aria-pressed', String(b.dataset.range === rk));
    const custom = main.querySelector('#custom-range');
    custom.hidden = rk !== 'custom';
    if (rk === 'custom') {
      main.querySelector('#from').value = toLocalInput(Number(p.get('from')));
      main.querySelector('#to').value = toLocalInput(Number(p.get('to')));
    }
    main.querySelector('#refresh').value = st.REFRESH[p.get('refresh')] !== undefined ? p.get('refresh') : 'off';
    const level = level_();
    for (const t of main.querySelectorAll('[role="tab"]')) {
      t.setAttribute('aria-selected', String(t.dataset.level === level));
      t.tabIndex = t.dataset.level === level ? 0 : -1;
    }
    body.setAttribute('aria-labelledby', 'tab-' + level);
  }

  function level_() {
    const l = st.params().get('level');
    if (!levels) return l || '';
    return levels.some((x) => x.id === l) ? l : levels[0].id;
  }

  /** The tabs, one per level of the layout. */
  function buildTabs() {
    main.querySelector('[role="tablist"]').innerHTML = levels.map((l) =>
      `<button type="button" role="tab" id="tab-${esc(l.id)}" data-level="${esc(l.id)}" aria-selected="false">${esc(l.title)}</button>`).join('');
  }

  // The filters' choices load once per page, on their own controller: every reload() aborts
  // `controller` (the panels' requests), and the first reload comes when the layout arrives, which
  // used to cancel these requests when they were slower than the layout (filters left empty).
  const filterController = new AbortController();

  function adapterOption(model, adapter) {
    const o = new Option('\u00a0\u00a0↳ ' + adapter + ' (LoRA)', st.adapterChoice(model, adapter));
    o.dataset.adapter = adapter;
    return o;
  }

  // Each adapter seen in the window goes right under its base model's choice.
  async function loadAdapters(signal) {
    const w = st.timeWindow();
    const r = await api.adapters({ start: w.start, end: w.end }, signal);
    const sel = main.querySelector('#filter-model');
    const keep = sel.value;
    for (const a of r.data) {
      const value = st.adapterChoice(a.model, a.adapter);
      if ([...sel.options].some((o) => o.value === value)) continue;
      let base = [...sel.options].findIndex((o) => o.value === a.model);
      if (base < 0) { sel.add(new Option(a.model, a.model)); base = sel.options.length - 1; }
      let at = base + 1;
      while (at < sel.options.length && sel.options[at].dataset.adapter) at++;
      sel.add(adapterOption(a.model, a.adapter), at < sel.options.length ? at : null);
    }
    sel.value = keep;
  }

  async function loadFilterValues() {
    const signal = filterController.signal;
    await Promise.all(Object.entries(st.FILTERS).map(async ([param, label]) => {
      // A failed load is retried a few times (1, 2, 4, 8 s apart): a server busy with the first
      // render or restarting must not leave the filters without choices until a reload.
      for (let attempt = 0; attempt < 5 && !signal.aborted; attempt++) {
        try {
          const r = await api.labelValues(label, null, signal);
          const sel = main.querySelector('#filter-' + param);
          const keep = sel.value;
          for (const v of r.data) if (![...sel.options].some((o) => o.value === v)) sel.add(new Option(v, v));
          sel.value = keep;
          if (param === 'model') await loadAdapters(signal);
          return;
        } catch (e) {
          /* filters stay usable with "all" meanwhile */
          await new Promise((resolve) => setTimeout(resolve, 1000 << attempt));
        }
      }
    }));
  }

  function markDrawn() {
    window.__lastPanelDrawnAt = performance.now();
    const pending = cards.filter((c) => visible.has(c.el) || st.params().get('lazy') === '0')
      .some((c) => c.el.dataset.state === 'loading' || c.el.dataset.state === 'idle');
    if (!pending) window.__dashboardDone = true;
  }

  /** Renders the level's cards. */
  function build() {
    for (const c of cards) c.destroy();
    if (observer) observer.disconnect();
    cards = [];
    tables = [];
    visible.clear();
    body.textContent = '';
    const level = level_();
    const lazy = st.params().get('lazy') !== '0';
    // 'all' is the API's level of every panel
    specs = layout.filter((p) => level === 'all' || p.level === level);
    const chosen = specs;
    if (level === 'pod' || level === 'gpu' || level === 'all') {
      for (const [cols, title, byGpu] of [[POD_COLUMNS, 'Pods', false], [GPU_COLUMNS, 'GPUs of each pod', true]]) {
        if (level === 'pod' && byGpu || level === 'gpu' && !byGpu) continue;
        const el = document.createElement('section');
        el.className = 'panel';
        el.id = byGpu ? 'gpu-table' : 'pod-table';
        body.appendChild(el);
        tables.push({ t: podTable(el, title, cols, byGpu), cols, byGpu });
      }
    }
    headrooms = [];
    if (level === 'model' || level === 'pod') {
      const el = document.createElement('section');
      el.className = 'panel';
      el.id = level === 'pod' ? 'pod-headroom' : 'model-headroom';
      body.appendChild(el);
      headrooms.push(headroomTable(el, level === 'pod'));
    }
    let section = null;
    let grid = null;
    for (const spec of chosen) {
      if (spec.section !== section) {
        section = spec.section;
        const h = document.createElement('h2');
        h.textContent = section;
        grid = document.createElement('div');
        const sec = sections.find((x) => x.title === section);
        grid.className = 'grid' + (sec && sec.wide ? ' wide' : '');
        body.append(h, grid);
      }
      const card = panelCard(spec, { load: loader.load, onZoom: zoom, onDrawn: markDrawn });
      grid.appendChild(card.el);
      cards.push(card);
    }
    if (chosen.length === 0) body.innerHTML = '<div class="empty"><div class="reason">No panels at this level.</div><div class="todo">Pick another level.</div></div>';
    observer = lazy ? new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        visible.add(e.target);
        const c = cards.find((x) => x.el === e.target);
        if (c && c.el.dataset.state === 'idle') c.refresh(win);
      }
    }, { rootMargin: '300px' }) : null;
    reload(true);
  }

  /**
   * Shows the level in the URL. The layout (every panel's id, title, unit, kind; nothing queried)
   * is read once; the cards then ask for their data as they come into view.
   */
  function show() {
    if (layout) { build(); return; }
    body.innerHTML = '<div class="loading">Loading…</div>';
    api.layout(controller.signal).then((r) => {
      layout = r.data.panels.map((p) => Object.assign({}, p, { kind: String(p.kind || 'timeseries').toLowerCase() }));
      levels = r.data.levels;
      sections = r.data.sections;
      buildTabs();
      syncToolbar();
      offerQuantiles(r.data.quantiles);
      build();
    }, (e) => {
      if (e.name === 'AbortError') return;
      body.innerHTML = '<div class="empty"><div class="reason error">The dashboard API did not answer: ' + esc(e.message) +
        '</div><div class="todo">Explore, Targets and Alerts still work; the dashboard needs the LLM layer (infermon serve).</div></div>';
      window.__dashboardDone = true;
    });
  }

  /** The quantiles the server offers (llm.quantiles), in place of the built-in list. */
  function offerQuantiles(qs) {
    if (!Array.isArray(qs) || !qs.length) return;
    const sel = main.querySelector('#quantile');
    const keep = sel.value;
    sel.textContent = '';
    for (const q of qs) sel.add(new Option('p' + Math.round(q * 1000) / 10, String(q)));
    sel.value = [...sel.options].some((o) => o.value === keep) ? keep : String(qs.includes(0.95) ? 0.95 : qs[0]);
  }

  function reload(keepData) {
    win = currentWindow();
    main.querySelector('#window-text').textContent = fmtTime(win.start * 1000) + ' → ' + fmtTime(win.end * 1000) +
      ' · step ' + win.step + ' s' + (win.custom ? ' · zoomed (Back or a range button returns)' : '');
    if (!specs) return;
    controller.abort();
    controller = new AbortController();
    if (!keepData) loader.clear();
    window.__dashboardDone = false;
    for (const c of cards) {
      c.el.dataset.state = 'idle';
      if (!observer || visible.has(c.el)) c.refresh(win);
    }
    if (observer) for (const c of cards) observer.observe(c.el);
    for (const h of headrooms) h.load(Math.round(win.end), st.params().get('model') || '', controller.signal);
    for (const tb of tables) {
      tb.t.loading();
      const w = win;
      Promise.all(tb.cols.map((col) => {
        const spec = specs.find((x) => x.id === col.panel);
        return spec ? loader.load(spec, w, 'summary').then((d) => [col.panel, d], () => [col.panel, null]) : [col.panel, null];
      })).then((pairs) => {
        if (w !== win) return;
        tb.t.set(tableRows(tb.cols, Object.fromEntries(pairs.filter((x) => x[1])), tb.byGpu));
      });
    }
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    const every = st.REFRESH[st.params().get('refresh')] || 0;
    if (every && !st.timeWindow().custom) timer = setTimeout(() => reload(), every * 1000);
  }

  function zoom(fromMs, toMs) {
    // Charts share their cursor, so one drag can reach every chart: act on it once.
    const p = st.params();
    if (p.get('from') === String(fromMs) && p.get('to') === String(toMs)) return;
    st.update({ from: fromMs, to: toMs });
    syncToolbar();
    reload();
  }

  // A listener, not an onsubmit attribute: the page's Content-Security-Policy runs no inline handlers.
  main.querySelector('#dash-toolbar').addEventListener('submit', (e) => e.preventDefault());
  main.querySelector('#dash-toolbar').addEventListener('change', (e) => {
    const t = e.target;
    if (t.dataset.filter === 'model') {
      // an adapter's choice filters by its base model and scopes the adapter panels to it
      const [model, adapter] = t.value.split('\n');
      st.update({ model, [st.ADAPTER.param]: adapter || null });
    } else if (t.dataset.filter) st.update({ [t.dataset.filter]: t.value });
    else if (t.id === 'quantile') st.update({ q: t.value });
    else if (t.id === 'refresh') { st.update({ refresh: t.value === 'off' ? null : t.value }, true); schedule(); return; } else return;
    reload();
  });
  main.querySelector('#ranges').addEventListener('click', (e) => {
    const b = e.target.closest('[data-range]');
    if (!b) return;
    if (b.dataset.range === 'custom') {
      const w = st.timeWindow();
      st.update({ from: Math.round(w.start * 1000), to: Math.round(w.end * 1000) });
    } else {
      st.update({ range: b.dataset.range, from: null, to: null });
    }
    syncToolbar();
    reload();
  });
  main.querySelector('#apply-range').addEventListener('click', () => {
    const from = new Date(main.querySelector('#from').value).getTime();
    const to = new Date(main.querySelector('#to').value).getTime();
    if (!(from < to)) { main.querySelector('#window-text').textContent = '"from" must be before "to".'; return; }
    st.update({ from, to });
    reload();
  });
  main.querySelector('#refresh-now').addEventListener('click', () => reload());
  // (reload() without arguments drops cached data: a refresh asks the server again)
  const tabs = main.querySelector('[role="tablist"]');
  tabs.addEventListener('click', (e) => {
    const t = e.target.closest('[data-level]');
    if (!t) return;
    st.update({ level: t.dataset.level });
    syncToolbar();
    show();
  });
  tabs.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const all = [...tabs.querySelectorAll('[role="tab"]')];
    const i = all.indexOf(document.activeElement);
    const next = all[(i + (e.key === 'ArrowRight' ? 1 : all.length - 1)) % all.length];
    next.focus();
    next.click();
  });
  const onTheme = () => { for (const c of cards) if (c.el.dataset.state === 'drawn') c.refresh(win); };
  window.addEventListener('themechange', onTheme);

  syncToolbar();
  reload();
  loadFilterValues();
  show();

  return {
    unmount() { clearTimeout(timer); controller.abort(); filterController.abort(); if (observer) observer.disconnect(); for (const c of cards) c.destroy(); window.removeEventListener('themechange', onTheme); },
    update() { syncToolbar(); show(); },
    refresh() { reload(); },
  };
}
