// Page state kept in the URL, so that a view can be shared: time range, refresh, filters, level,
// quantile, the per-pod charts' top. Reading never throws: a bad value falls back to the default.

export const RANGES = { '15m': 900, '1h': 3600, '6h': 21600, '24h': 86400, '7d': 604800 };
export const REFRESH = { off: 0, '10s': 10, '30s': 30, '1m': 60, '5m': 300 };
export const QUANTILES = ['0.5', '0.9', '0.95', '0.99'];
/** URL parameter → label name. */
export const FILTERS = {
  namespace: 'namespace', workload: 'workload_name', model: 'model_name', backend: 'backend', role: 'role',
};
const STEPS = [15, 30, 60, 90, 120, 300, 600, 900, 1800, 3600, 7200];

export function params() {
  return new URLSearchParams(location.search);
}

/** Updates the URL's query; pushes a history entry unless `replace`. */
export function update(changes, replace = false) {
  const p = params();
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === '') p.delete(k); else p.set(k, v);
  }
  const url = location.pathname + (p.toString() ? '?' + p : '');
  if (replace) history.replaceState(null, '', url); else history.pushState(null, '', url);
}

/** The time window in seconds: {start, end, step, custom}. */
export function timeWindow(p = params(), now = Date.now()) {
  const from = Number(p.get('from'));
  const to = Number(p.get('to'));
  let start;
  let end;
  let custom = false;
  if (from > 0 && to > from) {
    start = from / 1000;
    end = to / 1000;
    custom = true;
  } else {
    end = now / 1000;
    start = end - (RANGES[p.get('range')] || RANGES['1h']);
  }
  const step = stepFor(end - start);
  // Align to the step so that a refresh reuses the same grid and lines do not shimmer; the end
  // rounds up, so the newest scrape is always inside the window (a query past the last sample
  // still sees it within the lookback).
  if (!custom) {
    end = Math.ceil(end / step) * step;
    start = end - (RANGES[p.get('range')] || RANGES['1h']);
  }
  return { start, end, step, custom };
}

/** About 240 points per series, rounded to a readable step, never under 15 s. */
export function stepFor(seconds) {
  const raw = seconds / 240;
  for (const s of STEPS) if (s >= raw) return s;
  return Math.ceil(raw / 3600) * 3600;
}

export function rangeKey(p = params()) {
  if (Number(p.get('from')) > 0 && Number(p.get('to')) > 0) return 'custom';
  return RANGES[p.get('range')] ? p.get('range') : '1h';
}

/**
 * The LoRA adapter filter's parameter and label: no select of its own, the model filter offers
 * each adapter under its base model (the API's lora_adapter scopes the per-adapter LoRA panels).
 */
export const ADAPTER = { param: 'adapter', label: 'lora_adapter' };

/** The model filter's value of an adapter choice: base model and adapter ("\n" is in no name). */
export function adapterChoice(model, adapter) {
  return model + '\n' + adapter;
}

/** The filters set in the URL, keyed by label name. */
export function filters(p = params()) {
  const out = {};
  for (const [param, label] of Object.entries(FILTERS)) {
    const v = p.get(param);
    if (v) out[label] = v;
  }
  if (p.get(ADAPTER.param)) out[ADAPTER.label] = p.get(ADAPTER.param);
  return out;
}

/** A selector's matchers for the filters: {a="x",b="y"} or empty. */
export function matchers(f) {
  const parts = Object.entries(f).map(([k, v]) => k + '="' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"');
  return parts.length ? '{' + parts.join(',') + '}' : '';
}

/**
 * The per-pod charts' series limit from the URL's `top` (`raw`): a positive integer overrides
 * `dflt`, `all` draws every series (null); anything else (absent) falls back to `dflt`.
 */
export function top(raw, dflt) {
  if (raw === 'all') return null;
  return /^[1-9][0-9]{0,8}$/.test(raw || '') ? Number(raw) : dflt;
}
