// Engines: what the inventory detected on every target (engine, release range, the spelling its
// names use, optional features, families the catalog does not know), then the catalog itself, one
// anchor per family (#family-<name>), which panels' reasons link to.
import { api } from './api.js';
import { esc } from './format.js';

/** "0.8 – 0.11", "0.11" when the range is one release, "release unknown" without one. */
export function releaseText(versions) {
  if (!versions || !versions.first) return 'release unknown';
  return versions.first === versions.last ? versions.first : versions.first + ' – ' + versions.last;
}

/** The badge text of a target: "vllm 0.8 – 0.11"; "" for a target the inventory did not place. */
export function badgeText(t) {
  if (!t || !t.engine || t.engine === 'unknown') return '';
  return t.engine + (t.versions ? ' ' + releaseText(t.versions) : '');
}

/** The anchor of a family on the engines page. */
export function familyAnchor(name) {
  return 'family-' + name;
}

/**
 * Per engine, what its targets show: [{engine, targets, up, releases: ["0.8 – 0.11", ...],
 * prefixes: ["vllm:"], features: [...]}] sorted by engine; releases, prefixes and features once each.
 */
export function engineSummary(targets) {
  const by = new Map();
  for (const t of targets || []) {
    const e = t.engine || 'unknown';
    if (!by.has(e)) by.set(e, { engine: e, targets: 0, up: 0, releases: new Set(), prefixes: new Set(), features: new Set() });
    const s = by.get(e);
    s.targets++;
    if (t.up) s.up++;
    s.releases.add(releaseText(t.versions));
    if (t.prefix) s.prefixes.add(t.prefix);
    (t.features || []).forEach((f) => s.features.add(f));
  }
  return [...by.values()].sort((a, b) => a.engine.localeCompare(b.engine)).map((s) => ({
    engine: s.engine, targets: s.targets, up: s.up, releases: [...s.releases].sort(),
    prefixes: [...s.prefixes].sort(), features: [...s.features].sort(),
  }));
}

function targetName(labels) {
  return labels.pod || labels.instance || JSON.stringify(labels);
}

function familyRow(f) {
  const h = f.history || {};
  const life = ['since ' + f.since]
    .concat(h.renamedFrom ? ['renamed from ' + h.renamedFrom] : [])
    .concat(h.deprecated ? ['deprecated in ' + h.deprecated] : [])
    .concat(h.hidden ? ['hidden from ' + h.hidden] : [])
    .concat(h.removed ? ['removed in ' + h.removed] : [])
    .concat(h.replacedBy ? ['replaced by ' + h.replacedBy] : [])
    .concat(h.note ? [h.note] : []);
  const labels = (f.labels || []).map((l) => l.name + (l.since ? ' (from ' + l.since + ')' : '') + (l.until ? ' (until ' + l.until + ')' : '')).join(', ');
  const buckets = (f.buckets || []).map((b) => (b.since || b.until ? (b.since ? b.since : '') + '–' + (b.until ? b.until : '') + ': ' : '') + b.bounds).join('; ');
  const gate = f.condition && f.condition.kind !== 'always' ? ' · needs ' + f.condition.flag : '';
  return `<tr id="${esc(familyAnchor(f.name))}" data-family="${esc(f.name)}"><td><code>${esc(f.name)}</code>${f.spellings && f.spellings.length > 1 ? `<div class="muted">also ${f.spellings.slice(1).map(esc).join(', ')}</div>` : ''}</td>
    <td>${esc(f.type)}</td><td>${esc(f.unit)}</td><td>${esc(life.join('; ') + gate)}${f.help ? `<div class="muted">${esc(f.help)}</div>` : ''}${f.avoid ? `<div class="error">${esc(f.avoid)}</div>` : ''}</td>
    <td>${esc(labels)}${buckets ? `<div class="muted">buckets ${esc(buckets)}</div>` : ''}</td><td class="muted">${esc(f.cite)}</td></tr>`;
}

export function mount(main) {
  main.innerHTML = `<h1>Engines</h1>
    <div class="toolbar"><button type="button" class="btn" id="engines-refresh">↻ Refresh</button></div>
    <h2>Detected</h2><div id="engines-summary"><div class="loading">Loading…</div></div>
    <h2>Targets</h2><div id="engines-targets"></div>
    <h2>Catalog</h2><p class="muted">Every family infermon knows, by engine, with its releases and where the facts come from.</p>
    <div id="engines-catalog"><div class="loading">Loading…</div></div>`;
  const controller = new AbortController();
  const sumEl = main.querySelector('#engines-summary');
  const tgtEl = main.querySelector('#engines-targets');
  const catEl = main.querySelector('#engines-catalog');

  function showHash() {
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    const row = document.getElementById(id);
    if (!row) return;
    main.querySelectorAll('tr.hit').forEach((r) => r.classList.remove('hit'));
    row.classList.add('hit');
    row.scrollIntoView({ block: 'center' });
  }

  async function loadInventory() {
    try {
      const inv = (await api.inventory(controller.signal)).data;
      const targets = inv.targets || [];
      const sum = engineSummary(targets);
      sumEl.innerHTML = sum.length ? `<table class="data engines"><thead><tr><th scope="col">Engine</th><th scope="col">Targets</th><th scope="col">Releases</th><th scope="col">Spelling</th><th scope="col">Features</th></tr></thead><tbody>
        ${sum.map((s) => `<tr data-engine="${esc(s.engine)}"><td>${esc(s.engine)}</td><td class="num">${s.up}/${s.targets} up</td><td>${s.releases.map((r) => `<span class="chip">${esc(r)}</span>`).join('')}</td>
        <td>${s.prefixes.map((p) => `<code>${esc(p)}</code>`).join(' ')}</td><td>${s.features.map((f) => `<span class="chip">${esc(f)}</span>`).join('') || '<span class="muted">none</span>'}</td></tr>`).join('')}</tbody></table>`
        : '<div class="empty"><div class="reason">No target has been scraped yet.</div><div class="todo">Check the Targets page.</div></div>';
      tgtEl.innerHTML = targets.length ? `<table class="data engine-targets"><thead><tr><th scope="col">Target</th><th scope="col">Engine</th><th scope="col">Release</th><th scope="col">Spelling</th><th scope="col">Features</th><th scope="col">Unknown families</th></tr></thead><tbody>
        ${targets.slice().sort((a, b) => targetName(a.labels).localeCompare(targetName(b.labels))).map((t) => `<tr data-instance="${esc(t.labels.instance || '')}"><td>${esc(targetName(t.labels))} <span class="muted">${esc(t.labels.namespace || '')}</span>${t.up ? '' : ' <span class="badge down">down</span>'}</td>
          <td>${esc(t.engine)}</td><td>${esc(releaseText(t.versions))}</td><td><code>${esc(t.prefix || '')}</code></td>
          <td>${(t.features || []).map((f) => `<span class="chip">${esc(f)}</span>`).join('')}</td>
          <td class="num" title="${esc((t.unknownFamilies || []).join(', '))}">${(t.unknownFamilies || []).length}</td></tr>`).join('')}</tbody></table>` : '';
    } catch (e) {
      if (e.name !== 'AbortError') sumEl.innerHTML = '<p class="error">' + esc(e.message) + '</p>';
    }
  }

  async function loadCatalog() {
    try {
      const fams = await api.catalogFamilies(controller.signal);
      const by = new Map();
      for (const f of fams) {
        if (!by.has(f.engine)) by.set(f.engine, { title: f.engineTitle || f.engine, list: [] });
        by.get(f.engine).list.push(f);
      }
      catEl.innerHTML = [...by.entries()].map(([e, g]) => `<details class="group" open data-engine="${esc(e)}"><summary>${esc(g.title)} <span class="muted">(${g.list.length} families)</span></summary>
        <table class="data families"><thead><tr><th scope="col">Family</th><th scope="col">Type</th><th scope="col">Unit</th><th scope="col">History</th><th scope="col">Labels and buckets</th><th scope="col">Source</th></tr></thead><tbody>
        ${g.list.map(familyRow).join('')}</tbody></table></details>`).join('');
      showHash();
    } catch (e) {
      if (e.name !== 'AbortError') catEl.innerHTML = '<p class="error">' + esc(e.message) + '</p>';
    }
  }

  function load() {
    loadInventory();
    return loadCatalog();
  }
  main.querySelector('#engines-refresh').addEventListener('click', load);
  load();
  return { unmount() { controller.abort(); }, refresh: load, update: showHash };
}
