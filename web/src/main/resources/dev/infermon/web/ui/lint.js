// The lint form of the diagnosis page, and the POST call the page's three endpoints share: a rule
// file or a dashboard's JSON is too long for a URL, so parameters go as a form body
// (application/x-www-form-urlencoded; docs/http-api.md, "Lint, diagnosis and SLOs").

import { ApiError, encode } from './api.js';
import { esc } from './format.js';

/** POSTs `params` as a form; resolves to `data` or throws an ApiError, like api.js's calls. */
export async function post(path, params, signal) {
  let res;
  try {
    res = await fetch(path, {
      method: 'POST', signal,
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: encode(params),
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError('infermon is not reachable: ' + e.message, 'network', 0);
  }
  const text = await res.text();
  let body = null;
  try { body = JSON.parse(text); } catch (e) { /* plain-text answer such as 503 */ }
  if (!res.ok || !body || body.status !== 'success') {
    const msg = body && body.error ? body.error : (text.trim() || res.statusText);
    throw new ApiError(msg, body && body.errorType ? body.errorType : 'http', res.status);
  }
  return body.data;
}

/**
 * What the pasted text is: a Grafana dashboard (JSON with panels), a rule file (YAML with
 * groups:) or else one PromQL expression. The server lints each kind with its own locations.
 */
export function kindOf(text) {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      const j = JSON.parse(t);
      if (j && typeof j === 'object' && (j.panels || j.dashboard)) return 'dashboard';
    } catch (e) { /* not JSON: a PromQL expression may start with { too */ }
  }
  if (/^\s*groups\s*:/m.test(t)) return 'rules';
  return 'expr';
}

const KIND_TEXT = { expr: 'PromQL expression', rules: 'rule file', dashboard: 'Grafana dashboard' };

/** Where a finding is, in the words of its input: file:line:col, group/rule, panel/refId. */
export function where(loc) {
  if (!loc) return '';
  const parts = [];
  let pos = loc.file || '';
  if (loc.line > 0) pos += ':' + loc.line + (loc.column > 0 ? ':' + loc.column : '');
  if (pos) parts.push(pos);
  if (loc.group) parts.push('group ' + loc.group);
  if (loc.rule) parts.push('rule ' + loc.rule);
  if (loc.dashboard) parts.push('dashboard ' + loc.dashboard);
  if (loc.panel) parts.push('panel ' + loc.panel);
  if (loc.refId) parts.push('query ' + loc.refId);
  return parts.join(' · ');
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };

function report(data, kind) {
  const s = data.summary || {};
  const findings = (data.findings || []).slice()
    .sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3));
  const head = `<p class="muted" id="lint-summary">Linted as a ${esc(KIND_TEXT[kind])} against ${esc(data.reference || '')}:
    ${+s.error || 0} error(s), ${+s.warning || 0} warning(s), ${+s.info || 0} info.</p>`;
  if (!findings.length) {
    return head + '<div class="empty" id="lint-clean"><div class="reason">No finding: the input looks right.</div></div>';
  }
  return head + `<table class="data lint-findings"><thead><tr><th scope="col">Severity</th><th scope="col">Check</th>
    <th scope="col">Location</th><th scope="col">Message</th><th scope="col">Fix</th></tr></thead><tbody>
    ${findings.map((f) => `<tr class="lint-finding" data-check="${esc(f.check)}" data-severity="${esc(f.severity)}">
      <td><span class="badge sev-${esc(f.severity)}">${esc(f.severity)}</span></td><td><code>${esc(f.check)}</code></td>
      <td>${esc(where(f.location))}</td><td>${esc(f.message)}</td><td>${esc(f.fix || '')}</td></tr>`).join('')}
    </tbody></table>`;
}

/** Renders the lint form into `el`; returns {abort()} for the page's unmount. */
export function mountLint(el) {
  el.innerHTML = `<form id="lint-form" class="lint-form">
    <label for="lint-input">A PromQL expression, a Prometheus rule file (YAML) or a Grafana dashboard (JSON)</label>
    <div class="editor"><textarea id="lint-input" rows="6" spellcheck="false" autocomplete="off"
      placeholder="rate(vllm:num_requests_waiting[5m])"></textarea></div>
    <div class="toolbar"><button type="submit" class="btn primary" id="lint-run">Lint</button>
      <label class="inline"><input type="checkbox" id="lint-catalog"> judge by the catalog only (not by what is stored)</label>
      <span class="muted">Ctrl+Enter lints</span></div>
  </form><div id="lint-result" aria-live="polite"></div>`;
  const form = el.querySelector('#lint-form');
  const input = el.querySelector('#lint-input');
  const out = el.querySelector('#lint-result');
  let ctl = null;
  async function run() {
    const text = input.value;
    if (!text.trim()) {
      out.innerHTML = '<p class="error">Paste something to lint first.</p>';
      input.focus();
      return;
    }
    if (ctl) ctl.abort();
    ctl = new AbortController();
    const kind = kindOf(text);
    const params = { [kind]: text, reference: el.querySelector('#lint-catalog').checked ? 'catalog' : '' };
    out.innerHTML = '<div class="loading">Linting…</div>';
    try {
      out.innerHTML = report(await post('/api/v1/llm/lint', params, ctl.signal), kind);
    } catch (e) {
      if (e.name !== 'AbortError') out.innerHTML = '<p class="error" id="lint-error">' + esc(e.message) + '</p>';
    }
  }
  form.addEventListener('submit', (e) => { e.preventDefault(); run(); });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
  });
  return { abort() { if (ctl) ctl.abort(); } };
}
