#!/usr/bin/env bash
# The UI figure (issue 10): full dashboard over 6 h for 100 simulated pods, navigation to the last
# panel drawn, in headless Chromium. Needs /usr/bin/chromium and /usr/bin/chromedriver, and the
# modules installed in the local repository (./mvnw install -DskipTests once). Backfilling 6 h of
# 100 pods takes 2-8 min; -Dui.serve.minutes=N (in JAVA_TOOL_OPTIONS) keeps the server up after.
#   bench/ui-dashboard.sh [pods=100] [hours=6] [scrape-seconds=30] [runs=5]
# The first load after a restart (issue 25): a history stored by DashboardLoadMain (benchmarks),
# copied to a temporary directory and opened as a restarted server would, no backfill, no ticker.
# DIR itself is never written; -Dui.bench.history.copy=false (JAVA_TOOL_OPTIONS) opens DIR in
# place instead, for a fresh copy made by the caller (the copy of 1,000 pods x 6 h is 1.8 GB).
#   bench/ui-dashboard.sh --history DIR [runs=5]
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == --history ]]; then
  [[ -f "${2:?--history DIR}/history.properties" ]] || { echo "no history.properties in $2" >&2; exit 2; }
  args=(--history "$(cd "$2" && pwd)" "${3:-5}")
else
  args=("${1:-100}" "${2:-6}" "${3:-30}" "${4:-5}")
fi
# MVN_FLAGS (environment) goes to both Maven calls (-o where the local repository has everything)
./mvnw -q ${MVN_FLAGS:-} -pl it-ui test-compile
./mvnw -q ${MVN_FLAGS:-} -pl it-ui dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/ui-bench.cp
exec java -Xmx8g -cp "it-ui/target/test-classes:$(cat it-ui/target/ui-bench.cp)" \
  dev.infermon.itui.UiDashboardBench "${args[@]}"
