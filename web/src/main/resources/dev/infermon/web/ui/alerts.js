// Alerts: firing and pending alerts with their labels and annotations (a firing one linked to its
// incident page), the alerts resolved in the last hour (linked likewise), then every rule group with
// each rule's health, last error and evaluation time. An alert's value is printed in its rule's
// unit when the rule's annotations say it (format.js alertUnit), else as Prometheus's humanize.
import { api } from './api.js';
import { alertUnit, ago, esc, fmt, fmtAlertValue, fmtTime } from './format.js';
import { incidentHref } from './incident.js';

/** alertname → the unit of its value, from every alerting rule that states one. */
export function unitsByAlert(groups) {
  const out = {};
  for (const g of groups || []) {
    for (const r of g.rules || []) {
      const u = r.type === 'alerting' ? alertUnit(r.annotations) : '';
      if (u) out[r.name] = u;
    }
  }
  return out;
}

function chips(obj) {
  return Object.entries(obj || {}).map(([k, v]) => `<span class="chip">${esc(k)}="${esc(v)}"</span>`).join('');
}

// The cause diagnosis gives an alert (docs/alerting.md): shown first, its evidence below it and the
// dashboard as a link; the rule's own annotations follow.
const CAUSE = ['cause', 'cause_evidence', 'cause_error', 'dashboard_url', 'incident_url'];

function annotations(ann) {
  const a = ann || {};
  const out = [];
  if (a.cause) out.push(`<div class="cause"><b>cause</b>: ${esc(a.cause)}</div>`);
  if (a.cause_evidence) out.push(`<div class="muted"><b>evidence</b>: ${esc(a.cause_evidence)}</div>`);
  if (a.cause_error) out.push(`<div class="error"><b>cause</b>: ${esc(a.cause_error)}</div>`);
  if (/^https?:\/\//.test(a.dashboard_url || '')) out.push(`<div><a href="${esc(a.dashboard_url)}">Dashboard at the alert's time</a></div>`);
  for (const [k, v] of Object.entries(a)) {
    if (!CAUSE.includes(k)) out.push(`<div><b>${esc(k)}</b>: ${esc(v)}</div>`);
  }
  return out.join('');
}

/**
 * Alerts that fired in the last hour and fire no longer, from their ALERTS series (the rule writes
 * a point per evaluation while one fires and ends it when it resolves), each linked to its incident.
 */
function resolvedHtml(series, active) {
  const rows = series.filter((s) => !active.has(key(s.metric))).map((s) => {
    const labels = Object.assign({}, s.metric);
    delete labels.__name__;
    delete labels.alertstate;
    return { labels, last: Number(s.values[s.values.length - 1][0]) };
  });
  if (!rows.length) return '<p class="muted">No alert resolved in the last hour.</p>';
  return `<table class="data"><thead><tr><th scope="col">Alert</th><th scope="col">Labels</th><th scope="col">Last firing</th></tr></thead><tbody>
    ${rows.map((r) => `<tr class="resolved-alert"><td>${esc(r.labels.alertname || '')}<div><a class="incident-link" href="${esc(incidentHref(r.labels))}" data-nav>Incident →</a></div></td>
      <td>${chips(r.labels)}</td><td class="num">${esc(fmtTime(r.last * 1000))}</td></tr>`).join('')}</tbody></table>`;
}

function key(labels) {
  return Object.keys(labels).filter((k) => k !== '__name__' && k !== 'alertstate').sort().map((k) => k + '=' + labels[k]).join(',');
}

export function mount(main) {
  main.innerHTML = `<h1>Alerts</h1><div class="toolbar"><button type="button" class="btn" id="alerts-refresh">↻ Refresh</button></div>
    <h2>Active alerts</h2><div id="active-alerts"><div class="loading">Loading…</div></div>
    <h2>Resolved in the last hour</h2><div id="resolved-alerts"><div class="loading">Loading…</div></div>
    <h2>Rules</h2><div id="rule-groups"><div class="loading">Loading…</div></div>`;
  const controller = new AbortController();
  const alertsEl = main.querySelector('#active-alerts');
  const rulesEl = main.querySelector('#rule-groups');
  const resolvedEl = main.querySelector('#resolved-alerts');

  async function resolved() {
    try {
      const end = Date.now() / 1000;
      const [r, a] = await Promise.all([
        api.queryRange('ALERTS{alertstate="firing"}', (end - 3600).toFixed(3), end.toFixed(3), 60, controller.signal),
        api.alerts(controller.signal),
      ]);
      const active = new Set((a.data.alerts || []).filter((x) => x.state === 'firing').map((x) => key(x.labels)));
      resolvedEl.innerHTML = resolvedHtml(r.data.result || [], active);
    } catch (e) {
      if (e.name !== 'AbortError') resolvedEl.innerHTML = '<p class="error">' + esc(e.message) + '</p>';
    }
  }

  async function load() {
    // the rules first: they carry the units the alerts' values are printed in
    const rules = api.rules(controller.signal).then((r) => r.data.groups || []);
    rules.catch(() => {});
    try {
      const units = unitsByAlert(await rules.catch(() => []));
      const a = (await api.alerts(controller.signal)).data.alerts || [];
      a.sort((x, y) => (x.state === 'firing' ? 0 : 1) - (y.state === 'firing' ? 0 : 1));
      alertsEl.innerHTML = a.length ? `<table class="data"><thead><tr><th scope="col">State</th><th scope="col">Alert</th><th scope="col">Labels</th><th scope="col">Annotations</th><th scope="col">Active since</th><th scope="col">Value</th></tr></thead><tbody>
        ${a.map((x) => `<tr data-state="${esc(x.state)}"><td><span class="badge ${esc(x.state)}">${esc(x.state)}</span></td><td>${esc(x.labels.alertname || '')}${x.state === 'firing' ? `<div><a class="incident-link" href="${esc(incidentHref(x.labels))}" data-nav>Incident →</a></div>` : ''}</td>
        <td>${chips(x.labels)}</td><td>${annotations(x.annotations)}</td>
        <td class="num">${x.activeAt ? esc(ago(Date.parse(x.activeAt))) : ''}</td><td class="num" title="${esc(x.value)}">${esc(fmtAlertValue(x.value, units[x.labels.alertname] || ''))}</td></tr>`).join('')}</tbody></table>`
        : '<div class="empty"><div class="reason">No alert is pending or firing.</div><div class="todo">Rules below show what is watched.</div></div>';
    } catch (e) {
      if (e.name !== 'AbortError') alertsEl.innerHTML = '<p class="error">' + esc(e.message) + '</p>';
    }
    try {
      const groups = await rules;
      rulesEl.innerHTML = groups.length ? groups.map((g) => `<details class="group" open><summary>${esc(g.name)} <span class="muted">${esc(g.file || '')} · every ${esc(g.interval)} s</span></summary>
        <table class="data rules"><thead><tr><th scope="col">Rule</th><th scope="col">Health</th><th scope="col">State</th><th scope="col">Expression</th><th scope="col">Labels and annotations</th><th scope="col">Last evaluation</th></tr></thead><tbody>
        ${(g.rules || []).map((r) => `<tr><td>${esc(r.name)}${r.type === 'recording' ? ' <span class="muted">(recording)</span>' : ''}</td>
          <td><span class="badge ${esc(r.health)}">${esc(r.health)}</span>${r.lastError ? `<div class="error">${esc(r.lastError)}</div>` : ''}</td>
          <td>${r.type === 'alerting' ? `<span class="badge ${esc(r.state)}">${esc(r.state)}</span>${r.alerts && r.alerts.length ? ' ×' + r.alerts.length : ''}` : ''}</td>
          <td><code>${esc(r.query)}</code>${r.duration ? ` <span class="muted">for ${esc(fmt(r.duration, 's'))}</span>` : ''}</td>
          <td>${chips(r.labels)}${Object.entries(r.annotations || {}).map(([k, v]) => `<div class="muted"><b>${esc(k)}</b>: ${esc(v)}</div>`).join('')}</td>
          <td class="num">${r.lastEvaluation && !r.lastEvaluation.startsWith('0001') ? esc(ago(Date.parse(r.lastEvaluation))) + ' · ' + esc(fmt(r.evaluationTime, 's')) : 'never'}</td></tr>`).join('')}
        </tbody></table></details>`).join('')
        : '<div class="empty"><div class="reason">No rules are loaded.</div><div class="todo">Add rule_files to the configuration (infermon ships a default alert pack: infermon export rules).</div></div>';
    } catch (e) {
      if (e.name !== 'AbortError') rulesEl.innerHTML = '<p class="error">' + esc(e.message) + '</p>';
    }
  }
  main.querySelector('#alerts-refresh').addEventListener('click', load);
  main.querySelector('#alerts-refresh').addEventListener('click', resolved);
  resolved();
  load();
  return { unmount() { controller.abort(); }, refresh: load };
}
