// Room for lint and diagnosis results (the next issue fills it): what will appear here.
export function mount(main) {
  main.innerHTML = `<h1>Diagnosis</h1>
  <div class="empty" role="note" id="diagnosis-placeholder"><div class="reason">Lint and diagnosis results will appear here.</div>
  <div class="todo">Lint checks rules, dashboards and queries against what the endpoints really expose; diagnosis walks the causal
  chain (KV cache → preemptions → waiting → TTFT) per model and pod and names the state it sees, with the evidence.
  Until then, the dashboard's <a href="/dashboard?level=causal" data-nav>causal chain</a> shows the same signals on one time axis.</div></div>`;
  return { unmount() {} };
}
