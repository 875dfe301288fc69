// The incident page (/incident?alert=Name{labels}): one alert on one time axis, from before it
// fired to its end — the value of its rule's expression, the cause diagnosis named over that span
// with the times it changed, and the dashboard's causal chain (KV usage → preemptions → queue →
// TTFT) for the pods involved. Everything comes from /api/v1/llm/incident and the dashboard API.
import { api } from './api.js';
import { timeChart } from './chart.js';
import { esc, fmtTime, unitLabel } from './format.js';
import { normalize } from './panels.js';
import { stepFor } from './state.js';

/** The causal chain per pod, in the chain's order (panels.yaml's causal_pod section). */
export const CAUSAL = ['causal_pod.kv_usage', 'causal_pod.preemptions', 'causal_pod.queue', 'causal_pod.ttft_p95'];

/** The incident page's link for an alert's labels (alertname included), as the server builds it. */
export function incidentHref(labels) {
  const parts = Object.keys(labels).filter((k) => k !== 'alertname').sort()
    .map((k) => k + '="' + String(labels[k]).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"');
  return '/incident?alert=' + encodeURIComponent((labels.alertname || '') + '{' + parts.join(', ') + '}');
}

function grid(start, end, step) {
  const xs = [];
  for (let t = start; t <= end + 1e-9; t += step) xs.push(t);
  return xs;
}

function chips(obj) {
  return Object.entries(obj || {}).map(([k, v]) => `<span class="chip">${esc(k)}="${esc(v)}"</span>`).join('');
}

function timelineHtml(d) {
  if (!d.timeline.length) return `<p class="muted" id="incident-no-timeline">${esc(d.note || 'No diagnosis over this span.')}</p>`;
  return `<ol class="incident-timeline">${d.timeline.map((c) => `<li class="incident-cause" data-state="${esc(c.state)}" data-pod="${esc(c.pod)}">
    <div><span class="num">${esc(fmtTime(c.from * 1000))}${c.to > c.from ? ' – ' + esc(fmtTime(c.to * 1000)) : ''}</span>
    <span class="badge ${c.state ? (c.state === 'cause-not-found' ? 'pending' : 'err') : 'ok'}">${esc(c.state || 'no symptom')}</span></div>
    <div class="cause">${esc(c.cause)}</div>
    ${c.evidence.length ? `<div class="muted">${c.evidence.map(esc).join('<br>')}</div>` : ''}</li>`).join('')}</ol>
    <p class="muted">Diagnosis of the 30 minutes up to each of ${d.evaluations.length} time(s); an entry per change of the cause.</p>`;
}

export function mount(main) {
  const alert = new URLSearchParams(location.search).get('alert') || '';
  main.innerHTML = `<h1>Incident</h1><div id="incident-head"><div class="loading">Loading…</div></div>
    <section aria-labelledby="incident-symptom-h"><h2 id="incident-symptom-h">Symptom</h2><div class="panel" id="incident-symptom"><div class="body"></div></div></section>
    <section aria-labelledby="incident-timeline-h"><h2 id="incident-timeline-h">Diagnosis timeline</h2><div id="incident-timeline"></div></section>
    <section aria-labelledby="incident-causal-h"><h2 id="incident-causal-h">Causal chain of the pods involved</h2><div id="incident-pods"></div><div id="incident-causal"></div></section>`;
  const controller = new AbortController();
  const charts = [];
  const head = main.querySelector('#incident-head');

  async function load() {
    charts.splice(0).forEach((c) => c.destroy());
    if (!alert) {
      head.innerHTML = '<p class="error" id="incident-error">No alert given: open an incident from the Alerts page.</p>';
      return;
    }
    let d;
    try {
      d = (await api.incident(alert, controller.signal)).data;
    } catch (e) {
      if (e.name !== 'AbortError') head.innerHTML = '<p class="error" id="incident-error">' + esc(e.message) + '</p>';
      return;
    }
    const a = d.alert;
    head.innerHTML = `<p><span class="badge ${esc(d.state)}">${esc(d.state)}</span> <b>${esc(a.alertname)}</b> ${chips(a)}</p>
      <p class="muted">Fired ${esc(fmtTime(d.firingStart * 1000))}${d.state === 'resolved' ? ', resolved ' + esc(fmtTime(d.firingEnd * 1000)) : ', still firing'};
      shown from ${esc(fmtTime(d.start * 1000))} to ${esc(fmtTime(d.end * 1000))}.
      <a href="/dashboard?${new URLSearchParams({ level: 'causal', namespace: a.namespace || '', model: a.model_name || '', from: Math.round(d.start * 1000), to: Math.round(d.end * 1000) })}" data-nav>Dashboard over this span →</a></p>
      <details><summary>Expression</summary><code>${esc(d.expr)}</code></details>`;
    const s = d.symptom;
    const symEl = main.querySelector('#incident-symptom .body');
    const sxs = s.values.map((v, i) => (s.start + i * s.step) / 1000);
    const svals = s.values.map((v) => (typeof v === 'number' ? v : null));
    main.querySelector('#incident-symptom').dataset.points = String(svals.filter((v) => v != null).length);
    if (svals.some((v) => v != null)) {
      charts.push(timeChart(symEl, sxs, [{ label: a.alertname, values: svals }], { unit: '', sync: 'incident' }));
    } else {
      symEl.innerHTML = '<div class="empty"><div class="reason">The expression returned nothing for this alert over the span.</div></div>';
    }
    main.querySelector('#incident-timeline').innerHTML = timelineHtml(d);
    const pods = new Set(d.pods.map((p) => p.namespace + '/' + p.pod));
    main.querySelector('#incident-pods').innerHTML = d.pods.length
      ? `<p>${d.pods.map((p) => `<span class="chip incident-pod" data-pod="${esc(p.pod)}">${esc(p.namespace + '/' + p.pod)}${p.states.length ? ' · ' + esc(p.states.join(', ')) : ''}</span>`).join(' ')}</p>`
      : '<p class="muted">No pod is involved in what diagnosis read.</p>';
    await causal(d, pods);
  }

  async function causal(d, pods) {
    const el = main.querySelector('#incident-causal');
    if (!pods.size) return;
    const step = stepFor(d.end - d.start);
    const start = Math.floor(d.start / step) * step;
    const end = Math.ceil(d.end / step) * step;
    const xs = grid(start, end, step);
    const filters = { namespace: d.alert.namespace, model: d.alert.model_name };
    let r;
    try {
      r = await api.panels(CAUSAL, Object.assign({ start, end, step }, filters), controller.signal);
    } catch (e) {
      if (e.name !== 'AbortError') el.innerHTML = '<p class="error">' + esc(e.message) + '</p>';
      return;
    }
    el.innerHTML = '';
    for (const p of r.data.panels) {
      const n = normalize(p, xs, start, step);
      const series = [];
      n.queries.forEach((q) => q.series.forEach((x) => {
        if (pods.has((x.labels.namespace || '') + '/' + (x.labels.pod || ''))) series.push(x);
      }));
      const card = document.createElement('section');
      card.className = 'panel incident-causal';
      card.dataset.panel = p.panel.id;
      card.dataset.series = String(series.length);
      card.dataset.points = String(series.reduce((k, x) => k + x.values.filter((v) => v != null).length, 0));
      card.innerHTML = `<header><h3>${esc(p.panel.title)}</h3><span class="unit">${esc(unitLabel(p.panel.unit))}</span></header><div class="body"></div>`;
      el.appendChild(card);
      const body = card.querySelector('.body');
      if (series.some((x) => x.values.some((v) => v != null))) {
        charts.push(timeChart(body, xs, series, { unit: p.panel.unit, sync: 'incident' }));
      } else {
        body.innerHTML = `<div class="empty"><div class="reason">${esc((p.reasons[0] || {}).message || 'No data for these pods over the span.')}</div></div>`;
      }
    }
  }

  load();
  return { unmount() { controller.abort(); charts.forEach((c) => c.destroy()); }, refresh: load, update: load };
}
