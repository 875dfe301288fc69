// Units as the panel specs name them (Grafana's ids) → human text with a sensible scale.

const SI = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];

function num(v, digits) {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1000) {
    for (const [f, s] of SI) if (a >= f) return trim((v / f).toFixed(digits)) + s;
  }
  if (a >= 100) return trim(v.toFixed(Math.max(0, digits - 2)));
  if (a >= 10) return trim(v.toFixed(Math.max(0, digits - 1)));
  if (a >= 0.01) return trim(v.toFixed(digits));
  return v.toExponential(1);
}

function trim(s) {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

function seconds(v, d) {
  const a = Math.abs(v);
  if (a === 0) return '0 s';
  if (a < 1e-3) return num(v * 1e6, d) + ' µs';
  if (a < 1) return num(v * 1e3, d) + ' ms';
  if (a < 120) return num(v, d) + ' s';
  if (a < 7200) return num(v / 60, Math.max(1, d - 1)) + ' min';
  return num(v / 3600, Math.max(1, d - 1)) + ' h';
}

function mebibytes(v, d) {
  const a = Math.abs(v);
  if (a >= 1024 * 1024) return num(v / (1024 * 1024), d) + ' TiB';
  if (a >= 1024) return num(v / 1024, d) + ' GiB';
  return num(v, d) + ' MiB';
}

/** Axis labels for `splits`: the fewest decimals (from 1) that keep neighbouring ticks apart. */
export function fmtTicks(splits, unit) {
  let out = [];
  for (let d = 1; d <= 6; d++) {
    out = splits.map((v) => fmt(v, unit, d));
    if (new Set(out).size === out.length) return out;
  }
  return out;
}

/** Formats `v` in `unit` with about `d` decimals; null, NaN and ±Inf read as such. */
export function fmt(v, unit, d = 2) {
  if (v === null || v === undefined) return '–';
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  switch (unit) {
    case 's': return seconds(v, d);
    case 'ms': return seconds(v / 1000, d);
    case 'percentunit': return num(v * 100, d) + ' %';
    case 'percent': return num(v, d) + ' %';
    case 'mbytes': return mebibytes(v, d);
    case 'bytes': return mebibytes(v / (1024 * 1024), d);
    case 'tokens/s': return num(v, d) + ' tok/s';
    case 'reqps': return num(v, d) + ' req/s';
    case 'ops': return num(v, d) + ' /s';
    default: return num(v, d);
  }
}

/** A short label for the unit, shown beside a panel's title. */
export function unitLabel(unit) {
  return {
    s: 'seconds', ms: 'milliseconds', percentunit: '%', percent: '%', mbytes: 'MiB',
    bytes: 'bytes', 'tokens/s': 'tokens/s', reqps: 'requests/s', ops: 'per second',
  }[unit] || '';
}

export function fmtTime(ms) {
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, '0');
  return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + ' ' +
    p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds());
}

/** "3.2 s ago", "5 min ago". */
export function ago(ms, now = Date.now()) {
  const s = (now - ms) / 1000;
  if (s < 0) return 'just now';
  if (s < 60) return s.toFixed(1) + ' s ago';
  if (s < 3600) return Math.round(s / 60) + ' min ago';
  return Math.round(s / 3600) + ' h ago';
}

/** Renders Grafana's {{label}} legend template with a series' labels. */
export function legend(template, labels) {
  const out = template.replace(/\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}/g, (m, k) => labels[k] ?? '');
  return out.trim() || labelString(labels);
}

export function labelString(labels) {
  const name = labels.__name__ || '';
  const rest = Object.keys(labels).filter((k) => k !== '__name__').sort()
    .map((k) => k + '="' + labels[k] + '"').join(', ');
  return name + (rest || !name ? '{' + rest + '}' : '');
}

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
