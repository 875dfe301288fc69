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

/** Whether `unit` is a duration: its axis gets time ticks (1 s, 5 s, 1 min, 1 h ...). */
export function isDuration(unit) {
  return unit === 's' || unit === 'ms';
}

/**
 * The value axis's [min, max] for data in [min, max], or null to let uPlot choose. A share (ratio
 * or percent) spans 0-100 % unless the data leave it, so a flat 1 reads as 100 % on a 0-100 %
 * axis instead of being blown up around itself; a duration starts at 0 (latencies are never
 * negative, and a padded negative tick reads as nonsense).
 */
export function axisRange(unit, min, max) {
  const full = unit === 'percentunit' ? 1 : unit === 'percent' ? 100 : null;
  if (min == null || max == null || !Number.isFinite(min) || !Number.isFinite(max)) {
    return full !== null ? [0, full] : isDuration(unit) ? [0, unit === 'ms' ? 1000 : 1] : null;
  }
  if (full !== null) return [Math.min(0, min), Math.max(full, max)];
  if (isDuration(unit) && min >= 0) {
    const top = max === 0 ? 1 : max;
    const step = durationStep(top * (unit === 'ms' ? 1e-3 : 1), 5) * (unit === 'ms' ? 1e3 : 1);
    return [0, Math.ceil(top / step - 1e-9) * step];
  }
  return null;
}

// Round increments for a duration axis, in seconds: 1-2-5 below a second, then the clock's own
// steps (15 s, 30 s, 1 min, 5 min, 15 min, 1 h, 6 h, 1 d) so ticks land where a reader counts.
const DURATION_INCRS = [1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 0.01, 0.02,
  0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200,
  86400, 172800, 604800];

/** uPlot's `incrs` for a duration axis in `unit` (s or ms). */
export function durationIncrs(unit) {
  return unit === 'ms' ? DURATION_INCRS.map((x) => parseFloat((x * 1e3).toPrecision(6))) : DURATION_INCRS.slice();
}

/** The smallest round increment that cuts `span` seconds into at most `ticks` steps. */
export function durationStep(span, ticks) {
  for (const x of DURATION_INCRS) if (span / x <= ticks) return x;
  return DURATION_INCRS[DURATION_INCRS.length - 1];
}

/**
 * Labels for duration ticks `splits` (in `unit`, s or ms): one unit for the whole axis, the
 * largest the increment is a whole number of (30 s steps stay "90 s", 5 min steps read "15 min"),
 * so every label of a round axis is a round number.
 */
export function durationTicks(splits, unit) {
  const f = unit === 'ms' ? 1e-3 : 1;
  const secs = splits.map((v) => v * f);
  const incr = secs.length > 1 ? Math.abs(secs[1] - secs[0]) : Math.abs(secs[0]) || 1;
  const units = [[3600, 'h'], [60, 'min'], [1, 's'], [1e-3, 'ms'], [1e-6, 'µs']];
  const tol = 1e-9;
  let [div, name] = units[units.length - 1];
  for (const [d, n] of units) {
    const k = incr / d;
    if (k >= 1 - tol && Math.abs(k - Math.round(k)) < 1e-6 * Math.max(1, k)) { div = d; name = n; break; }
  }
  return secs.map((v) => (v === 0 ? '0' : trim((v / div).toFixed(incr / div >= 1 ? 0 : 3))) + ' ' + name);
}

/**
 * Prometheus's `humanize` template function: four significant digits with an SI prefix
 * (1234 → "1.234k", 0.0123 → "12.3m"), for values whose unit is not known.
 */
export function humanize(v) {
  if (v === 0 || !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v === 0 ? '0' : v > 0 ? '+Inf' : '-Inf';
  let x = v;
  let prefix = '';
  if (Math.abs(x) >= 1) {
    for (const p of ['k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y']) {
      if (Math.abs(x) < 1000) break;
      prefix = p;
      x /= 1000;
    }
  } else {
    for (const p of ['m', 'u', 'n', 'p', 'f', 'a', 'z', 'y']) {
      if (Math.abs(x) >= 1) break;
      prefix = p;
      x *= 1000;
    }
  }
  return String(parseFloat(x.toPrecision(4))) + prefix;
}

/**
 * The unit of an alerting rule's value, read from how its annotations print `$value` (the
 * template functions name it: humanizeDuration is seconds, humanizePercentage a ratio,
 * humanize1024 bytes), or '' when they do not say.
 */
export function alertUnit(annotations) {
  const text = Object.values(annotations || {}).join(' ');
  const m = /\$value\s*\|\s*(humanizeDuration|humanizePercentage|humanize1024)\b/.exec(text);
  if (!m) return '';
  return { humanizeDuration: 's', humanizePercentage: 'percentunit', humanize1024: 'bytes' }[m[1]];
}

/** An alert's value (the API's string) in `unit`, or as Prometheus's humanize when none is known. */
export function fmtAlertValue(value, unit) {
  const v = typeof value === 'number' ? value : value === '+Inf' ? Infinity : value === '-Inf' ? -Infinity : parseFloat(value);
  if (value == null || value === '' || (Number.isNaN(v) && value !== 'NaN')) return String(value ?? '');
  return unit ? fmt(v, unit, 3) : humanize(v);
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
