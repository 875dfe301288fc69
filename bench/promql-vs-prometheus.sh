#!/usr/bin/env bash
# The dashboard's PromQL queries on infermon's engine and on Prometheus 2.42, side by side in one
# run, over identical data (100 vLLM pods x 6 h at 15 s by default). Prints a table and writes it to
# <work>/results.md. Options are passed on: --pods N --hours H --step SECONDS --warmup W --rounds R
# --work DIR (default /tmp/infermon-bench-promql; the backfilled Prometheus data is kept there and
# reused by later runs with the same --pods and --hours).
#
# Needs /usr/bin/prometheus and /usr/bin/promtool (Debian package prometheus, 2.42) and about
# 2 GB of free disk in the work directory for the first run (the OpenMetrics file, deleted after
# the backfill). SKIP_BUILD=1 uses the benchmarks jar as built.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
  "$(java -version 2>&1 | head -1)"
echo "uptime before: $(uptime)"
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  ./mvnw -q -pl benchmarks -am package -DskipTests
fi
java -Xms4g -Xmx4g -XX:+UseParallelGC -XX:+AlwaysPreTouch \
  -cp benchmarks/target/benchmarks.jar dev.infermon.benchmarks.promql.PromqlVsPrometheus "$@" \
  2> >(grep -v '^SLF4J' >&2)
echo "uptime after: $(uptime)"
