#!/usr/bin/env bash
# How the dashboard's panels are best grouped into requests: fires every panel of the layout over
# the last 6 h split into N comma-separated `panels=` requests in parallel (N = 1, 2, 3, 5), and
# one request per level, three rounds each, against a running infermon (or the benchmark's
# HistoryServer: bench/ui-dashboard.sh with -Dui.serve.minutes). Prints wall-clock seconds.
#   bench/ui-dashboard-requests.sh PORT
set -euo pipefail
P=${1:?port of a running infermon on 127.0.0.1}
# the end rounded up to the step, as the UI does: repeated rounds then share the step grid
END=$((($(date +%s) / 90 + 1) * 90))
Q="start=$((END - 21600))&end=$END&step=90"
IDS=$(curl -s "127.0.0.1:$P/api/v1/llm/dashboard/panels" |
  python3 -c "import json,sys;print(' '.join(p['id'] for p in json.load(sys.stdin)['data']['panels']))")
split() {
  python3 - "$1" $IDS <<'PY'
import sys
n = int(sys.argv[1]); ids = sys.argv[2:]
for k in range(n):
    print(','.join(ids[k::n]))
PY
}
for round in 1 2 3; do
  for n in 1 2 3 5; do
    s=$(date +%s.%N)
    for b in $(split "$n"); do curl -s -o /dev/null "127.0.0.1:$P/api/v1/llm/dashboard?panels=$b&$Q" & done
    wait
    echo "round $round, $n request(s): $(echo "$(date +%s.%N) - $s" | bc) s"
  done
  s=$(date +%s.%N)
  for l in model pod gpu causal pd; do curl -s -o /dev/null "127.0.0.1:$P/api/v1/llm/dashboard?level=$l&$Q" & done
  wait
  echo "round $round, one request per level: $(echo "$(date +%s.%N) - $s" | bc) s"
done
