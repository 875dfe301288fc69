#!/usr/bin/env bash
# Scrape cost end to end: infermon, Prometheus 2.42 and VictoriaMetrics scrape the same simulated
# fleet at the same time (100 vLLM pods by default, 5 s interval), each into its own data dir with
# its default settings; after a warm-up, CPU seconds per million samples and resident memory per
# series are measured from the outside (/proc and each server's own counters) over one window, and
# each server's API gives its series count and its targets' last scrape durations. Prints a
# Markdown table and writes it to <work>/results.md.
#
# Options (environment): PODS (100), INTERVAL (5, seconds), WARMUP (90, seconds), WINDOW (240,
# seconds), WORK (/tmp/infermon-bench-scrape), INFERMON_JAR (server/target/infermon.jar, built
# when missing), INFERMON_HEAP (JVM flags; default: the ./infermon launcher's defaults for serve, with
# MALLOC_ARENA_MAX=2 as the launcher sets it), SKIP_BUILD=1 to use the jars as they are.
#
# Needs /usr/bin/prometheus (Debian package prometheus, 2.42); VictoriaMetrics
# (/usr/bin/victoria-metrics, Debian package victoria-metrics) joins when installed, PEERS=prometheus
# leaves it out. Everything listens on 127.0.0.1 and is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

PODS=${PODS:-100}
INTERVAL=${INTERVAL:-5}
WARMUP=${WARMUP:-90}
WINDOW=${WINDOW:-240}
WORK=${WORK:-/tmp/infermon-bench-scrape}
JAR=${INFERMON_JAR:-server/target/infermon.jar}
# Keep in step with the launcher (./infermon): measure infermon as it ships.
HEAP=${INFERMON_HEAP:--XX:+UseSerialGC -Xms32m -XX:NewRatio=8 -XX:MinHeapFreeRatio=5 -XX:MaxHeapFreeRatio=10 -XX:-ShrinkHeapInSteps -XX:-UsePerfData -XX:+IgnoreUnrecognizedVMOptions -XX:TrimNativeHeapInterval=10000 -XX:-TieredCompilation}
SIM_PORT=${SIM_PORT:-19400}
INFERMON_PORT=${INFERMON_PORT:-19090}
PROM_PORT=${PROM_PORT:-19091}
VM_PORT=${VM_PORT:-19092}
PEERS=${PEERS:-prometheus,victoria-metrics}

[[ -x /usr/bin/prometheus ]] || { echo "needs /usr/bin/prometheus (Prometheus 2.42)" >&2; exit 2; }
if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  ./mvnw -q -B -DskipTests -pl server,benchmarks -am package
fi

rm -rf "$WORK" && mkdir -p "$WORK"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

vm=
if [[ ",$PEERS," == *,victoria-metrics,* && -x /usr/bin/victoria-metrics ]]; then
  vm=/usr/bin/victoria-metrics
fi
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
  "$(java -version 2>&1 | head -1), $(/usr/bin/prometheus --version 2>&1 | head -1)," \
  "VictoriaMetrics: ${vm:+$(dpkg-query -W -f '${Version}' victoria-metrics 2>/dev/null)}${vm:-not run}"
echo "uptime before: $(uptime)"

# The fleet: vLLM pods only (no prefill/decode pairs), one port per target.
sim=(java -Xmx1g -jar "$JAR" simulate --vllm-pods "$PODS" --no-pd --listen "127.0.0.1:$SIM_PORT"
  --scrape-interval "$INTERVAL" --warmup 10m)
"${sim[@]}" --print-prometheus-config > "$WORK/fleet.yml"
"${sim[@]}" > "$WORK/simulator.log" 2>&1 &
pids+=($!)

# The same scrape config for every server; infermon and VictoriaMetrics read prometheus.yml
# unchanged.
for i in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$SIM_PORT/-/inventory" > /dev/null 2>&1 && break
  sleep 0.5
done

# Prometheus evaluates no rules here; infermon's default LLM alert pack is switched off to match.
MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} INFERMON_LLM_ALERTS_ENABLED=false java $HEAP -jar "$JAR" serve --config.file="$WORK/fleet.yml" \
  --storage.tsdb.path="$WORK/infermon-data" --web.listen-address="127.0.0.1:$INFERMON_PORT" \
  > "$WORK/infermon.log" 2>&1 &
infermon_pid=$!
pids+=($infermon_pid)
/usr/bin/prometheus --config.file="$WORK/fleet.yml" --storage.tsdb.path="$WORK/prometheus-data" \
  --web.listen-address="127.0.0.1:$PROM_PORT" > "$WORK/prometheus.log" 2>&1 &
prom_pid=$!
pids+=($prom_pid)

sides=(
  "infermon=$infermon_pid,http://127.0.0.1:$INFERMON_PORT/metrics,infermon_tsdb_head_samples_appended_total,infermon_tsdb_head_series"
  "Prometheus 2.42=$prom_pid,http://127.0.0.1:$PROM_PORT/metrics,prometheus_tsdb_head_samples_appended_total,prometheus_tsdb_head_series")
if [[ -n "$vm" ]]; then
  # Its defaults, but for the listen address and data dir, and strictParse off: it has no rules,
  # so it refuses global.evaluation_interval otherwise. Series: the current hour's active series,
  # the counterpart of a head's.
  "$vm" -promscrape.config="$WORK/fleet.yml" -promscrape.config.strictParse=false \
    -storageDataPath="$WORK/vm-data" \
    -httpListenAddr="127.0.0.1:$VM_PORT" > "$WORK/victoria-metrics.log" 2>&1 &
  vm_pid=$!
  pids+=($vm_pid)
  sides+=("VictoriaMetrics=$vm_pid,http://127.0.0.1:$VM_PORT/metrics,vm_rows_added_to_storage_total,vm_cache_entries{type=\"storage/hour_metric_ids\"}")
fi

java -cp benchmarks/target/benchmarks.jar dev.infermon.benchmarks.scrape.ScrapeVsPeers \
  "${sides[@]}" --warmup "$WARMUP" --window "$WINDOW" | tee "$WORK/results.md"
# Where infermon's resident memory is at the end of the window: the Java heap's committed and used
# sizes (committed heap is most of the RSS, and how far it runs ahead of the live data varies
# from run to run with the timing of full collections).
jcmd "$infermon_pid" GC.heap_info 2>/dev/null | grep -E "total|Metaspace" | sed 's/^/infermon heap at the end: /' || true
echo "targets: $(grep -c -- "- targets:" "$WORK/fleet.yml" || true) in $WORK/fleet.yml"
echo "uptime after: $(uptime)"
