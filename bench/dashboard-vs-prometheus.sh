#!/usr/bin/env bash
# Every query of one dashboard load on infermon's engine and on Prometheus 2.42, side by side in one
# run, over a fleet history built by DashboardLoadMain (-Ddashload.dir=DIR). Prints one row per
# query and a summary, and writes them to <work>/results.md. Options are passed on:
#   --history DIR   the history (required; opened for writing: pass a copy of one others measure)
#   --work DIR      default /tmp/infermon-bench-dashboard-vs-prometheus; the exported Prometheus
#                   blocks are kept there and reused while the history is the same
#   --warmup W --rounds R   default 3 and 10
#   --shards N      OpenMetrics files per two-hour window (default 1): more bound the disk the text
#                   takes at a time; Prometheus merges the overlapping blocks when it starts
#
# Needs /usr/bin/prometheus and /usr/bin/promtool (Debian package prometheus, 2.42), and free disk
# in the work directory for one window's OpenMetrics text (about 340 bytes per sample of the window,
# divided by the shards) plus the blocks. HEAP sets the JVM's heap (default 4g). SKIP_BUILD=1 uses
# the benchmarks jar as built.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
  "$(java -version 2>&1 | head -1)"
echo "uptime before: $(uptime)"
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  ./mvnw -q -pl benchmarks -am package -DskipTests
fi
HEAP=${HEAP:-4g}
java "-Xms$HEAP" "-Xmx$HEAP" -XX:+UseParallelGC -XX:+AlwaysPreTouch \
  -cp benchmarks/target/benchmarks.jar dev.infermon.benchmarks.promql.DashboardVsPrometheus "$@" \
  2> >(grep -v '^SLF4J' >&2)
echo "uptime after: $(uptime)"
