// Capacity headroom on the dashboard: one table per level (models at the model level, pods at the
// pod level) of what /api/v1/llm/capacity estimates — not a PromQL panel: the estimate is fitted by
// the LLM layer's CapacityService over its own look-back (7 d of history up to the window's end),
// so each row is the estimate or the reason there is none, never a number standing in for one.
import { api } from './api.js';
import { esc, fmt } from './format.js';

function hours(seconds) {
  if (seconds == null) return null;
  return seconds < 3600 ? Math.round(seconds / 60) + ' min' : fmt(seconds / 3600, 'none') + ' h';
}

/** One table row's cells: [name, current, ceiling, headroom, time to ceiling] or a reason. */
export function headroomRow(h, byPod) {
  const name = byPod ? h.pod : h.model;
  if (!h.estimated) return { name, ns: h.namespace, reason: h.reason };
  return {
    name,
    ns: h.namespace,
    cells: [
      fmt(h.currentRate, 'reqps'),
      fmt(h.ceilingRate, 'reqps'),
      h.headroom == null ? '–' : fmt(h.headroom, 'none') + '×',
      h.secondsToCeiling == null ? (h.timeReason || '–') : hours(h.secondsToCeiling),
    ],
  };
}

export function headroomTable(el, byPod) {
  const title = byPod ? 'Capacity headroom per pod' : 'Capacity headroom per model';
  el.innerHTML = '<header><h3>' + esc(title) + '</h3></header><div class="loading">Loading…</div>';
  return {
    async load(endSeconds, model, signal) {
      let data;
      try {
        data = (await api.capacity({ end: endSeconds, model }, signal)).data;
      } catch (e) {
        if (e.name === 'AbortError') return;
        el.dataset.state = 'error';
        el.innerHTML = '<header><h3>' + esc(title) + '</h3></header><div class="empty"><div class="reason error">' + esc(e.message) + '</div></div>';
        return;
      }
      const rows = (byPod ? data.pods : data.models).map((h) => headroomRow(h, byPod));
      const head = '<tr><th scope="col">' + (byPod ? 'Pod' : 'Model') + '</th><th scope="col">Now</th><th scope="col">Ceiling</th>' +
        '<th scope="col">Headroom</th><th scope="col">Time to ceiling</th></tr>';
      const body = rows.map((r) => '<tr data-name="' + esc(r.name) + '" data-estimated="' + (r.reason ? 'false' : 'true') + '"><td>' + esc(r.name) +
        ' <span class="muted">' + esc(r.ns) + '</span></td>' +
        (r.reason ? '<td colspan="4" class="reason">' + esc(r.reason) + '</td>' : r.cells.map((c) => '<td class="num">' + esc(c) + '</td>').join('')) +
        '</tr>').join('');
      el.dataset.state = 'drawn';
      el.dataset.end = String(endSeconds);
      el.innerHTML = '<header><h3>' + esc(title) + '</h3><span class="unit">' + esc('fitted over ' + data.lookbackSeconds / 86400 + ' d of history up to the window\'s end (docs/capacity.md)') + '</span></header>' +
        (rows.length ? '<div style="overflow:auto;max-height:420px"><table class="data headroom"><thead>' + head + '</thead><tbody>' + body + '</tbody></table></div>'
          : '<div class="empty"><div class="reason">No inference pods in the history.</div></div>');
    },
  };
}
