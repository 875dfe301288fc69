// The diagnosis page: per model and pod the states the diagnosis finds in the URL's time window,
// each with the symptoms it explains, its evidence, what it could not read and a link to the
// dashboard's causal chain; per pod the signals not measured (never shown as fine); the SLOs'
// error budgets; and a lint form for expressions, rule files and dashboards (lint.js).

import { encode } from './api.js';
import { esc, fmt, fmtTime } from './format.js';
import { mountLint, post } from './lint.js';
import * as state from './state.js';

/** The diagnosis's states (docs/diagnosis.md) in the words the page uses. */
const STATES = {
  saturated: 'Saturated',
  'kv-pressure': 'KV-cache pressure',
  'deferred-by-config': 'Deferred by configuration',
  'idle-gpu-long-queue': 'Idle GPU with a long queue',
  'slow-pod': 'Slow pod',
  'errors-rising': 'Errors rising',
  'gpu-memory-near-full': 'GPU memory near full',
  'pd-bottleneck': 'Prefill/decode bottleneck',
  restarted: 'Restarted',
  'prefill-bound': 'Prefill-bound',
  'decode-bound': 'Decode-bound',
  'cause-not-found': 'Cause not found',
};
/** The symptoms of the default alerts (and slow streaming) in the words the page uses. */
const SYMPTOMS = {
  'ttft-high': 'TTFT high',
  'queued-while-preempting': 'Queued while preempting',
  'failures-high': 'Failures high',
  'itl-high': 'Inter-token latency high',
};
const WINDOWS = ['15m', '1h', '6h', '24h'];

function num(v) {
  return typeof v === 'number' ? fmt(v) : esc(v);
}

/** The dashboard's causal chain over the same window, filtered to the finding's model. */
function causalLink(f, p) {
  const q = { level: 'causal', model: f.model, namespace: f.namespace };
  for (const k of ['range', 'from', 'to']) if (p.get(k)) q[k] = p.get(k);
  return '/dashboard?' + encode(q);
}

function evidence(ev) {
  return `<table class="data evidence"><thead><tr><th scope="col">Signal</th><th scope="col">Series</th>
    <th scope="col">Value</th><th scope="col">At</th><th scope="col">Query</th></tr></thead><tbody>
    ${(ev || []).map((e) => `<tr><td>${esc(e.signal)}${e.note ? `<div class="muted">${esc(e.note)}</div>` : ''}</td>
      <td><code>${esc(e.series || '')}</code></td><td class="num">${num(e.value)}</td>
      <td class="num">${typeof e.time === 'number' ? esc(fmtTime(e.time * 1000)) : ''}</td>
      <td>${e.query ? `<a href="/explore?${esc(encode({ expr: e.query }))}" data-nav title="${esc(e.query)}">in Explore</a>` : ''}</td></tr>`).join('')}
    </tbody></table>`;
}

/** Per pod, the signals the diagnosis could not read: listed as such, never as "no problem". */
function unmeasuredHtml(list) {
  if (!list || !list.length) return '';
  return `<section id="diagnosis-unmeasured"><h3>Not measured, so never judged</h3>
    <table class="data unmeasured"><thead><tr><th scope="col">Pod</th><th scope="col">Model</th><th scope="col">Signals not measured</th></tr></thead><tbody>
    ${list.map((n) => `<tr class="unmeasured-pod" data-pod="${esc(n.pod)}"><td>${esc(n.namespace + '/' + n.pod)}</td><td>${esc(n.model)}</td>
      <td>${(n.signals || []).map((s) => `<span class="chip">${esc(s)}</span>`).join('')}</td></tr>`).join('')}
    </tbody></table></section>`;
}

function findingHtml(f, p) {
  const symptoms = (f.symptoms || []).map((s) => `<span class="chip symptom" data-symptom="${esc(s)}">${esc(SYMPTOMS[s] || s)}</span>`).join('');
  const notRead = (f.notRead || []).length
    ? `<div class="diag-notread">Could not read: ${f.notRead.map((s) => `<span class="chip">${esc(s)}</span>`).join('')}</div>` : '';
  return `<article class="diag-finding" data-state="${esc(f.state)}">
    <header><span class="badge ${f.state === 'cause-not-found' ? 'pending' : 'err'}">${esc(STATES[f.state] || f.state)}</span> <b>${esc(f.summary || '')}</b></header>
    <div class="muted">${esc(f.description || '')}</div>
    ${symptoms ? `<div class="diag-symptoms">Explains: ${symptoms}</div>` : ''}${notRead}
    <details><summary>Evidence (${(f.evidence || []).length})</summary>${evidence(f.evidence)}</details>
    <a href="${esc(causalLink(f, p))}" data-nav>Causal chain for ${esc(f.model || 'all models')}${f.pod ? ' (pod ' + esc(f.pod) + ')' : ''} →</a>
  </article>`;
}

/** The diagnosis's `data` as HTML, grouped by model then pod; `p` the page's URL parameters. */
export function findingsHtml(data, p) {
  const list = (data.findings || []).slice().sort((a, b) =>
    (a.model || '').localeCompare(b.model || '') || (a.namespace + '/' + a.pod).localeCompare(b.namespace + '/' + b.pod));
  const checked = (data.pods || []).length;
  const span = `${esc(fmtTime(data.start * 1000))} – ${esc(fmtTime(data.end * 1000))}`;
  if (!list.length && !checked) {
    // Nothing was looked at: saying "no problem" here would be a false all-clear.
    return `<div class="empty" id="diagnosis-nodata"><div class="reason">Nothing to diagnose: no inference pod has data from ${span}.</div>
      <div class="todo">Check that the engines are scraped (Targets) and that their series carry <code>model_name</code>,
      <code>namespace</code> and <code>pod</code>; a window just after start-up may be too short — try a longer one.</div></div>`;
  }
  const unmeasured = unmeasuredHtml(data.notMeasured);
  if (!list.length) {
    // Only what was read is known to be fine: the signals not measured are listed beside it.
    return `<div class="empty" id="diagnosis-none"><div class="reason">No problem found in what could be read.</div>
      <div class="todo">${checked} pod(s) checked from ${span}: no state of the causal chain and no symptom of the
      default alerts${unmeasured ? '; the signals below could not be read, so their states were not judged' : ''}.</div></div>${unmeasured}`;
  }
  const groups = new Map();
  for (const f of list) {
    const key = (f.model || '') + '\u0000' + (f.pod ? f.namespace + '/' + f.pod : '');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(f);
  }
  let html = `<p class="muted">${list.length} finding(s) over ${checked} pod(s), ${span}.</p>`;
  for (const fs of groups.values()) {
    const f0 = fs[0];
    html += `<section class="diag-group" data-model="${esc(f0.model)}" data-pod="${esc(f0.pod || '')}">
      <h3>${esc(f0.model || '(no model)')} <span class="muted">· ${f0.pod ? esc(f0.namespace + '/' + f0.pod) : 'whole model'}</span></h3>
      ${fs.map((f) => findingHtml(f, p)).join('')}
    </section>`;
  }
  return html + unmeasured;
}

function pct(v) {
  return typeof v === 'number' ? fmt(v, 'percentunit') : esc(v);
}

/** The SLO endpoint's `data` as HTML: a table, or how to configure SLOs when there is none. */
export function slosHtml(data) {
  const list = data.slos || [];
  if (!list.length) {
    return `<div class="empty" id="slo-none"><div class="reason">No SLO is configured.</div>
      <div class="todo">Add objectives under <code>llm.slos</code> in the configuration (for example
      <code>{name: llama-ttft, model: …, sli: ttft, threshold: 2500ms, objective: 0.95}</code>); infermon then loads
      their recording and burn-rate rules, and each SLO's attainment and error budget appear here.</div></div>`;
  }
  return `<table class="data slos"><thead><tr><th scope="col">SLO</th><th scope="col">Model</th><th scope="col">SLI</th>
    <th scope="col">Objective</th><th scope="col">Attainment</th><th scope="col">Budget left</th><th scope="col">Burn rates</th></tr></thead><tbody>
    ${list.map((s) => {
      const low = typeof s.budgetRemaining === 'number' && s.budgetRemaining < 0.25;
      return `<tr class="slo" data-slo="${esc(s.slo)}"><td>${esc(s.slo)}</td><td>${esc(s.model)}</td>
      <td>${esc(s.sli)}${s.thresholdSeconds > 0 ? ' ≤ ' + esc(fmt(s.thresholdSeconds, 's')) : ''}</td>
      <td class="num">${pct(s.objective)} <span class="muted">/ ${esc(s.window)}</span></td>
      <td class="num">${pct(s.attainment)}</td>
      <td class="num${low ? ' error' : ''}">${pct(s.budgetRemaining)}</td>
      <td>${Object.entries(s.burnRates || {}).map(([w, r]) => `<span class="chip">${esc(w)} ${num(r)}×</span>`).join('')}</td></tr>`;
    }).join('')}</tbody></table>`;
}

export function mount(main) {
  main.innerHTML = `<h1>Diagnosis</h1>
    <section aria-labelledby="diag-h"><h2 id="diag-h">Diagnosis</h2>
      <div class="toolbar"><div class="seg" role="group" aria-label="Time window" id="diag-window"></div>
        <button type="button" class="btn" id="diag-refresh" title="Refresh (shortcut: r)">↻ Refresh</button></div>
      <div id="diagnosis-result" aria-live="polite"><div class="loading">Diagnosing…</div></div></section>
    <section aria-labelledby="slo-h"><h2 id="slo-h">SLOs</h2><div id="slo-result"><div class="loading">Loading…</div></div></section>
    <section aria-labelledby="lint-h"><h2 id="lint-h">Lint</h2><div id="lint"></div></section>`;
  const diagEl = main.querySelector('#diagnosis-result');
  const sloEl = main.querySelector('#slo-result');
  const seg = main.querySelector('#diag-window');
  const lint = mountLint(main.querySelector('#lint'));
  let ctl = null;

  function renderWindow(p) {
    const key = state.rangeKey(p);
    seg.innerHTML = WINDOWS.map((w) => `<button type="button" class="btn" data-range="${w}" aria-pressed="${key === w}">${w}</button>`).join('')
      + (key === 'custom' ? '<button type="button" class="btn" aria-pressed="true" disabled>custom</button>' : '');
  }

  async function load() {
    const p = state.params();
    renderWindow(p);
    if (ctl) ctl.abort();
    ctl = new AbortController();
    const signal = ctl.signal;
    const w = state.timeWindow(p);
    // A relative window ends now, not on the dashboard's step grid: the newest samples count most.
    const q = w.custom ? { start: w.start.toFixed(3), end: w.end.toFixed(3) } : { window: state.rangeKey(p) };
    diagEl.innerHTML = '<div class="loading">Diagnosing…</div>';
    const diag = (async () => {
      try {
        const data = await post('/api/v1/llm/diagnosis', q, signal);
        diagEl.innerHTML = findingsHtml(data, p);
      } catch (e) {
        if (e.name !== 'AbortError') diagEl.innerHTML = '<p class="error" id="diagnosis-error">' + esc(e.message) + '</p>';
      }
    })();
    const slo = (async () => {
      try {
        const data = await post('/api/v1/llm/slo', {}, signal);
        sloEl.innerHTML = slosHtml(data);
      } catch (e) {
        if (e.name !== 'AbortError') sloEl.innerHTML = '<p class="error">' + esc(e.message) + '</p>';
      }
    })();
    await Promise.all([diag, slo]);
  }

  seg.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-range]');
    if (!b) return;
    state.update({ range: b.dataset.range, from: null, to: null });
    load();
  });
  main.querySelector('#diag-refresh').addEventListener('click', load);
  load();
  return {
    update: load,
    refresh: load,
    unmount() {
      if (ctl) ctl.abort();
      lint.abort();
    },
  };
}
