// The HTTP API as the UI reads it. Every call returns parsed `data` or throws an ApiError with
// the server's message (a PromQL syntax error keeps Prometheus's "L:C: parse error: ..." form).

export class ApiError extends Error {
  constructor(message, type, status) {
    super(message);
    this.type = type;
    this.status = status;
  }
}

async function call(path, params, signal) {
  const qs = params ? '?' + encode(params) : '';
  let res;
  try {
    res = await fetch(path + qs, { signal, headers: { Accept: 'application/json' } });
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
  return { data: body.data, warnings: body.warnings || [], infos: body.infos || [] };
}

export function encode(params) {
  const parts = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    for (const one of Array.isArray(v) ? v : [v]) {
      parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(one));
    }
  }
  return parts.join('&');
}

export const api = {
  query: (query, time, signal) => call('/api/v1/query', { query, time }, signal),
  queryRange: (query, start, end, step, signal) =>
    call('/api/v1/query_range', { query, start, end, step }, signal),
  labelValues: (name, match, signal) =>
    call('/api/v1/label/' + encodeURIComponent(name) + '/values', { 'match[]': match }, signal),
  targets: (signal) => call('/api/v1/targets', { state: 'active' }, signal),
  rules: (signal) => call('/api/v1/rules', null, signal),
  alerts: (signal) => call('/api/v1/alerts', null, signal),
  metadata: (signal) => call('/api/v1/metadata', null, signal),
  // The LLM layer's dashboard API (docs/http-api.md).
  layout: (signal) => call('/api/v1/llm/dashboard/panels', null, signal),
  panels: (ids, params, signal) =>
    call('/api/v1/llm/dashboard', Object.assign({ panels: ids.join(',') }, params), signal),
  // The LoRA adapters listed in the window, by base model: the model filter's extra choices.
  adapters: (params, signal) => call('/api/v1/llm/dashboard/adapters', params, signal),
  catalogNames: (signal) => call('/api/v1/llm/catalog/names', null, signal),
  inventory: (signal) => call('/api/v1/llm/inventory', null, signal),
  // Capacity headroom per model and pod (docs/capacity.md): an estimate or its reason.
  capacity: (params, signal) => call('/api/v1/llm/capacity', params, signal),
  // One alert's incident: symptom, diagnosis timeline, pods involved (docs/http-api.md).
  incident: (alert, signal) => call('/api/v1/llm/incident', { alert }, signal),
  catalogFamilies: (signal) => call('/api/v1/llm/catalog/families', null, signal).then((r) => r.data),
};

let familyNames = null;

/**
 * Every spelling of every catalog family, read once per page load (the catalog is built into
 * the server and does not change while it runs); an empty set when the catalog is not served.
 */
export function catalogFamilyNames() {
  if (!familyNames) {
    familyNames = api.catalogFamilies().then((fams) => {
      const out = new Map();
      for (const f of fams) for (const s of f.spellings && f.spellings.length ? f.spellings : [f.name]) out.set(s, f.name);
      return out;
    }, () => new Map());
  }
  return familyNames;
}

/**
 * '... "query": 1:17: parse error: unexpected ...' → {line, column, message}; null for other
 * errors. Prometheus prefixes the position with 'invalid parameter "query": '.
 */
export function parsePosition(message) {
  const m = /(?:^|: )(\d+):(\d+): (parse error: [\s\S]*)$/.exec(message || '');
  return m ? { line: +m[1], column: +m[2], message: m[3] } : null;
}
