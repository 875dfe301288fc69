// Per-pod (or per-GPU) tables: one row per pod, a sparkline and the latest value per column, sorted
// worst first (the first column, descending) and re-sortable by any column. Built from the
// columns' panels in the API's summary form (summary=true: every series, none cut to the charts'
// top, as its last value and a sparkline of a few dozen points), one request per table.
import { sparkline, PALETTE } from './chart.js';
import { esc, fmt } from './format.js';

export const POD_COLUMNS = [
  { title: 'TTFT (quantile)', panel: 'pod.ttft', pick: ' q', unit: 's' },
  { title: 'E2E (quantile)', panel: 'pod.e2e', pick: ' q', unit: 's' },
  { title: 'KV-cache usage', panel: 'pod.kv_usage', pick: '', unit: 'percentunit' },
  { title: 'KV capacity (tokens)', panel: 'pod.kv_capacity', pick: ' tokens', unit: 'none' },
  { title: 'Waiting', panel: 'pod.scheduler', pick: ' waiting', unit: 'none' },
  { title: 'Rejected/s', panel: 'pod.admission_rejections', pick: ' rejected', unit: 'reqps' },
  { title: 'Output tokens/s', panel: 'pod.tokens', pick: ' out', unit: 'tokens/s' },
  { title: 'Engines asleep', panel: 'pod.sleep', pick: ' asleep', unit: 'none' },
];
export const GPU_COLUMNS = [
  { title: 'GPU utilisation', panel: 'gpu.utilization', pick: '', unit: 'percent' },
  { title: 'Tensor active', panel: 'gpu.tensor_active', pick: '', unit: 'percent' },
  { title: 'SM active', panel: 'gpu.sm_active', pick: '', unit: 'percent' },
  { title: 'Memory used', panel: 'gpu.memory_used', pick: '', unit: 'mbytes' },
];

function lastValue(values) {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] != null) return values[i];
  return null;
}

function rowKey(labels, byGpu) {
  return (labels.namespace || '') + '/' + (labels.pod || '') + (byGpu ? ' gpu ' + (labels.gpu || '') : '');
}

/** Rows from loaded panels: [{key, name, cells: [{values, last}]}]. */
export function tableRows(columns, dataByPanel, byGpu) {
  const rows = new Map();
  columns.forEach((col, ci) => {
    const d = dataByPanel[col.panel];
    if (!d) return;
    const q = d.queries.find((x) => x.legend.endsWith(col.pick)) || d.queries[0];
    if (!q) return;
    for (const s of q.series) {
      if (!s.labels.pod) continue;
      const key = rowKey(s.labels, byGpu);
      if (!rows.has(key)) {
        rows.set(key, { key, name: s.labels.pod + (byGpu ? ' · gpu ' + (s.labels.gpu || '?') : ''), ns: s.labels.namespace || '', cells: columns.map(() => null) });
      }
      rows.get(key).cells[ci] = { values: s.values, last: s.last !== undefined ? s.last : lastValue(s.values) };
    }
  });
  return [...rows.values()];
}

export function podTable(el, title, columns, byGpu) {
  let sort = { col: 0, desc: true };
  let rows = [];
  function render() {
    const sorted = rows.slice().sort((a, b) => {
      const av = a.cells[sort.col] ? a.cells[sort.col].last : null;
      const bv = b.cells[sort.col] ? b.cells[sort.col].last : null;
      if (av == null && bv == null) return a.name.localeCompare(b.name);
      if (av == null) return 1;
      if (bv == null) return -1;
      return sort.desc ? bv - av : av - bv;
    });
    const head = '<tr><th scope="col">' + (byGpu ? 'Pod · GPU' : 'Pod') + '</th>' + columns.map((c, i) => {
      const s = sort.col === i ? (sort.desc ? 'descending' : 'ascending') : 'none';
      return '<th scope="col" aria-sort="' + s + '"><button type="button" data-col="' + i + '">' + esc(c.title) +
        (sort.col === i ? (sort.desc ? ' ▼' : ' ▲') : '') + '</button></th>';
    }).join('') + '</tr>';
    const body = sorted.map((r, ri) => '<tr' + (ri === 0 && sort.desc ? ' class="worst"' : '') + ' data-pod="' + esc(r.name) + '"><td>' + esc(r.name) +
      ' <span class="muted">' + esc(r.ns) + '</span></td>' + r.cells.map((c, ci) => '<td class="num">' +
      (c ? sparkline(c.values, PALETTE[ci % PALETTE.length]) + esc(fmt(c.last, columns[ci].unit)) : '–') + '</td>').join('') + '</tr>').join('');
    el.innerHTML = '<header><h3>' + esc(title) + '</h3><span class="unit">' + rows.length + ' rows · worst first; click a column to sort</span></header>' +
      (rows.length ? '<div style="overflow:auto;max-height:420px"><table class="data pods"><thead>' + head + '</thead><tbody>' + body + '</tbody></table></div>'
        : '<div class="empty"><div class="reason">No pods in this view.</div><div class="todo">Clear a filter or widen the time range.</div></div>');
  }
  el.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-col]');
    if (!b) return;
    const c = Number(b.dataset.col);
    sort = sort.col === c ? { col: c, desc: !sort.desc } : { col: c, desc: true };
    render();
    el.querySelector('button[data-col="' + c + '"]').focus();
  });
  return {
    set(newRows) { rows = newRows; render(); },
    loading() { el.innerHTML = '<header><h3>' + esc(title) + '</h3></header><div class="loading">Loading…</div>'; },
  };
}
