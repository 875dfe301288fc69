#!/usr/bin/env bash
# The UI figure (issue 10): full dashboard over 6 h for 100 simulated pods, navigation to the last
# panel drawn, in headless Chromium. Needs /usr/bin/chromium and /usr/bin/chromedriver, and the
# modules installed in the local repository (./mvnw install -DskipTests once). Backfilling 6 h of
# 100 pods takes 2-8 min; -Dui.serve.minutes=N (in JAVA_TOOL_OPTIONS) keeps the server up after.
#   bench/ui-dashboard.sh [pods=100] [hours=6] [scrape-seconds=30] [runs=5]
set -euo pipefail
cd "$(dirname "$0")/.."
# MVN_FLAGS (environment) goes to both Maven calls (-o where the local repository has everything)
./mvnw -q ${MVN_FLAGS:-} -pl it-ui test-compile
./mvnw -q ${MVN_FLAGS:-} -pl it-ui dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/ui-bench.cp
exec java -Xmx8g -cp "it-ui/target/test-classes:$(cat it-ui/target/ui-bench.cp)" \
  dev.infermon.itui.UiDashboardBench "${1:-100}" "${2:-6}" "${3:-30}" "${4:-5}"
