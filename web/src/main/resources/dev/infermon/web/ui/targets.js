// Targets: every active target with its health, last scrape, duration, error and labels, grouped
// by workload (the workload_name label; the scrape pool when a target has none), and a badge with
// the engine and release the inventory detected on it (the Engines page has the details).
import { api } from './api.js';
import { badgeText } from './engines.js';
import { ago, esc, fmt } from './format.js';

/** The inventory's targets by job and instance, the labels both APIs give a target. */
export function inventoryIndex(targets) {
  const out = new Map();
  for (const t of targets || []) out.set((t.labels.job || '') + '|' + (t.labels.instance || ''), t);
  return out;
}

export function groupTargets(active) {
  const groups = new Map();
  for (const t of active) {
    const key = t.labels.workload_name || 'pool: ' + t.scrapePool;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(t);
  }
  for (const list of groups.values()) {
    list.sort((a, b) => (a.health === 'down' ? 0 : 1) - (b.health === 'down' ? 0 : 1) || a.scrapeUrl.localeCompare(b.scrapeUrl));
  }
  return [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0]));
}

export function mount(main) {
  main.innerHTML = `<h1>Targets</h1>
    <div class="toolbar"><label>filter<input type="search" id="target-filter" data-slash placeholder="label or URL (/ to focus)"></label>
    <label><span>health</span><select id="target-health"><option value="">any</option><option>up</option><option>down</option><option>unknown</option></select></label>
    <button type="button" class="btn" id="targets-refresh">↻ Refresh</button></div>
    <p class="muted" id="targets-summary" aria-live="polite"></p><div id="targets-body"><div class="loading">Loading…</div></div>`;
  const out = main.querySelector('#targets-body');
  const controller = new AbortController();
  let data = [];
  let detected = new Map();

  function render() {
    const q = main.querySelector('#target-filter').value.toLowerCase();
    const h = main.querySelector('#target-health').value;
    const shown = data.filter((t) => (!h || t.health === h) &&
      (!q || t.scrapeUrl.toLowerCase().includes(q) || Object.entries(t.labels).some(([k, v]) => (k + '=' + v).toLowerCase().includes(q))));
    const groups = groupTargets(shown);
    const up = data.filter((t) => t.health === 'up').length;
    main.querySelector('#targets-summary').textContent = data.length + ' targets, ' + up + ' up, ' + (data.length - up) + ' not up';
    if (!groups.length) { out.innerHTML = '<div class="empty"><div class="reason">No targets match.</div><div class="todo">Check scrape_configs and discovery, or clear the filter.</div></div>'; return; }
    out.innerHTML = groups.map(([name, list]) => {
      const down = list.filter((t) => t.health !== 'up').length;
      return `<details class="group" open data-workload="${esc(name)}"><summary>${esc(name)} <span class="muted">(${list.length - down}/${list.length} up)</span></summary>
      <table class="data targets"><thead><tr><th scope="col">Endpoint</th><th scope="col">Health</th><th scope="col">Labels</th><th scope="col">Last scrape</th><th scope="col">Duration</th><th scope="col">Error</th></tr></thead><tbody>
      ${list.map((t) => `<tr data-health="${esc(t.health)}"><td><a href="${esc(t.scrapeUrl)}" rel="noreferrer">${esc(t.scrapeUrl)}</a>${badge(t)}</td>
        <td><span class="badge ${esc(t.health)}">${esc(t.health)}</span></td>
        <td>${Object.entries(t.labels).filter(([k]) => !k.startsWith('__')).map(([k, v]) => `<span class="chip">${esc(k)}="${esc(v)}"</span>`).join('')}</td>
        <td class="num">${t.lastScrape && !t.lastScrape.startsWith('0001') ? esc(ago(Date.parse(t.lastScrape))) : 'never'}</td>
        <td class="num">${esc(fmt(t.lastScrapeDuration, 's'))}</td>
        <td class="error">${esc(t.lastError || '')}${t.lastWarning ? `<div class="warning">${esc(t.lastWarning)}</div>` : ''}</td></tr>`).join('')}</tbody></table></details>`;
    }).join('');
  }

  function badge(t) {
    const inv = detected.get((t.labels.job || '') + '|' + (t.labels.instance || ''));
    const text = badgeText(inv);
    return text ? ` <a class="badge engine" data-nav href="/engines" title="spelling ${esc(inv.prefix || '')}${inv.features && inv.features.length ? ' · ' + esc(inv.features.join(', ')) : ''}">${esc(text)}</a>` : '';
  }

  async function load() {
    // the inventory is optional: without it (storage not ready, no LLM layer) targets show no badge
    api.inventory(controller.signal).then((r) => {
      detected = inventoryIndex(r.data.targets);
      if (data.length) render();
    }, () => {});
    try {
      const r = await api.targets(controller.signal);
      data = r.data.activeTargets || [];
      render();
    } catch (e) {
      if (e.name !== 'AbortError') out.innerHTML = '<p class="error">' + esc(e.message) + '</p>';
    }
  }
  main.querySelector('#target-filter').addEventListener('input', render);
  main.querySelector('#target-health').addEventListener('change', render);
  main.querySelector('#targets-refresh').addEventListener('click', load);
  load();
  return { unmount() { controller.abort(); }, refresh: load };
}
