#!/usr/bin/env bash
# Scrape cost end to end: infermon, Prometheus 2.42 and VictoriaMetrics scrape the same simulated
# fleet at the same time (100 vLLM pods by default, 5 s interval), each into its own data dir with
# its default settings; after a warm-up, CPU seconds per million samples and resident memory per
# series are measured from the outside (/proc and each server's own counters) over one window, and
# each server's API gives its series count and its targets' last scrape durations. Prints a
# Markdown table and writes it to <work>/results.md.
#
# Steady state (HISTORY=minutes): before any live scrape, every server ingests the same history
# through its own remote-write receiver (Prometheus and infermon: --web.enable-remote-write-receiver;
# VictoriaMetrics: /api/v1/write, always on): `RemoteWriteBackfill` steps the same simulated fleet
# through the past from the 2 h boundary at or before HISTORY minutes ago (so HISTORY=190 gives
# 190-310 min, and the head compaction at 3 h of head cuts a full 2 h block) through the scrape
# pipeline's own ingest, and sends each step to all three at once. The servers start on a config
# without scrape jobs (so no live sample runs ahead of the history), get the fleet's config by
# POST /-/reload after the backfill, and the warm-up starts once Prometheus and infermon have cut a block.
# The table then adds each data dir's size per sample held (history included). The live
# simulator's fleet starts afresh (counters reset once where history meets live scrapes).
#
# The page server (the simulator) is measured apart over the same window and printed below the
# table; the one-minute load average is printed at both ends of the window.
#
# Options (environment): PODS (100), INTERVAL (5, seconds), WARMUP (90, seconds), WINDOW (240,
# seconds), HISTORY (0: none; minutes), SIM_HEAP (-Xmx1g), WORK (/tmp/infermon-bench-scrape), INFERMON_JAR (server/target/infermon.jar, built
# when missing), BENCHMARKS_JAR (benchmarks/target/benchmarks.jar), INFERMON_HEAP (JVM flags; default: the ./infermon launcher's defaults for serve, with
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
BENCH_JAR=${BENCHMARKS_JAR:-benchmarks/target/benchmarks.jar}
# Keep in step with the launcher (./infermon): measure infermon as it ships.
HEAP=${INFERMON_HEAP:--XX:+UseSerialGC -Xms32m -XX:NewRatio=8 -XX:MinHeapFreeRatio=5 -XX:MaxHeapFreeRatio=10 -XX:-ShrinkHeapInSteps -XX:-UsePerfData -XX:+IgnoreUnrecognizedVMOptions -XX:TrimNativeHeapInterval=10000 -XX:-TieredCompilation}
SIM_PORT=${SIM_PORT:-19400}
INFERMON_PORT=${INFERMON_PORT:-19090}
PROM_PORT=${PROM_PORT:-19091}
VM_PORT=${VM_PORT:-19092}
PEERS=${PEERS:-prometheus,victoria-metrics}
HISTORY=${HISTORY:-0}
SIM_HEAP=${SIM_HEAP:--Xmx1g}

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
sim=(java $SIM_HEAP -jar "$JAR" simulate --vllm-pods "$PODS" --no-pd --listen "127.0.0.1:$SIM_PORT"
  --scrape-interval "$INTERVAL" --warmup 10m)
"${sim[@]}" --print-prometheus-config > "$WORK/fleet.yml"
"${sim[@]}" > "$WORK/simulator.log" 2>&1 &
sim_pid=$!
pids+=($sim_pid)

# What the servers scrape: the fleet, or, while history is written, nothing.
scrape_yml="$WORK/fleet.yml"
receiver=()
if (( HISTORY > 0 )); then
  scrape_yml="$WORK/scrape.yml"
  sed '/^scrape_configs:/,$d' "$WORK/fleet.yml" > "$scrape_yml"
  receiver=(--web.enable-remote-write-receiver --web.enable-lifecycle)
fi

# The same scrape config for every server; infermon and VictoriaMetrics read prometheus.yml
# unchanged.
for i in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$SIM_PORT/-/inventory" > /dev/null 2>&1 && break
  sleep 0.5
done

# Prometheus evaluates no rules here; infermon's default LLM alert pack is switched off to match.
MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} INFERMON_LLM_ALERTS_ENABLED=false java $HEAP -jar "$JAR" serve --config.file="$scrape_yml" \
  "${receiver[@]}" --storage.tsdb.path="$WORK/infermon-data" --web.listen-address="127.0.0.1:$INFERMON_PORT" \
  > "$WORK/infermon.log" 2>&1 &
infermon_pid=$!
pids+=($infermon_pid)
/usr/bin/prometheus --config.file="$scrape_yml" "${receiver[@]}" --storage.tsdb.path="$WORK/prometheus-data" \
  --web.listen-address="127.0.0.1:$PROM_PORT" > "$WORK/prometheus.log" 2>&1 &
prom_pid=$!
pids+=($prom_pid)

sides=(
  "infermon=$infermon_pid,http://127.0.0.1:$INFERMON_PORT/metrics,infermon_tsdb_head_samples_appended_total,infermon_tsdb_head_series,$WORK/infermon-data"
  "Prometheus 2.42=$prom_pid,http://127.0.0.1:$PROM_PORT/metrics,prometheus_tsdb_head_samples_appended_total,prometheus_tsdb_head_series,$WORK/prometheus-data")
if [[ -n "$vm" ]]; then
  # Its defaults, but for the listen address and data dir, and strictParse off: it has no rules,
  # so it refuses global.evaluation_interval otherwise. Series: the current hour's active series,
  # the counterpart of a head's.
  "$vm" -promscrape.config="$scrape_yml" -promscrape.config.strictParse=false \
    -storageDataPath="$WORK/vm-data" \
    -httpListenAddr="127.0.0.1:$VM_PORT" > "$WORK/victoria-metrics.log" 2>&1 &
  vm_pid=$!
  pids+=($vm_pid)
  sides+=("VictoriaMetrics=$vm_pid,http://127.0.0.1:$VM_PORT/metrics,vm_rows_added_to_storage_total,vm_cache_entries{type=\"storage/hour_metric_ids\"},$WORK/vm-data")
fi

metric() { curl -fsS "$1" 2>/dev/null | awk -v m="$2" '$1 == m {print $2}'; }
if (( HISTORY > 0 )); then
  writes=("http://127.0.0.1:$INFERMON_PORT/api/v1/write" "http://127.0.0.1:$PROM_PORT/api/v1/write")
  [[ -n "$vm" ]] && writes+=("http://127.0.0.1:$VM_PORT/api/v1/write")
  for port in $INFERMON_PORT $PROM_PORT ${vm:+$VM_PORT}; do
    for i in $(seq 1 120); do curl -fsS "http://127.0.0.1:$port/metrics" > /dev/null 2>&1 && break; sleep 0.5; done
  done
  echo "history: $(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg)"
  # What receiving the history costs each side: CPU seconds from /proc over the backfill, and
  # infermon's collections (young / full) from its own JVM metrics.
  ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
  gcs() { curl -fsS "http://127.0.0.1:$INFERMON_PORT/metrics" | awk -v g="$1" \
    'index($0, "jvm_gc_collection_seconds_" g) == 1 {split($1, a, "\""); printf "%s=%s ", a[2], $2}'; }
  declare -A cpu0
  for p in $infermon_pid $prom_pid ${vm:+$vm_pid}; do cpu0[$p]=$(ticks "$p"); done
  gc0="$(gcs count)/$(gcs sum)"
  java -Xmx2g -cp "$BENCH_JAR" dev.infermon.benchmarks.scrape.RemoteWriteBackfill \
    "$WORK/fleet.yml" "$PODS" "$SIM_PORT" "$INTERVAL" "$HISTORY" "${writes[@]}" | tee "$WORK/backfill.log"
  samples=$(awk '/^backfilled/ {for (i = 1; i <= NF; i++) if ($(i + 1) == "samples") {gsub(",", "", $i); print $i}}' "$WORK/backfill.log")
  hz=$(getconf CLK_TCK)
  for side in "infermon=$infermon_pid" "Prometheus 2.42=$prom_pid" ${vm:+"VictoriaMetrics=$vm_pid"}; do
    p=${side#*=}
    awk -v n="${side%%=*}" -v t="$(( $(ticks "$p") - cpu0[$p] ))" -v hz="$hz" -v s="${samples:-0}" \
      'BEGIN {printf "backfill received by %s: %.1f CPU s, %.2f CPU s per 1 M samples\n", n, t / hz, (s > 0 ? t / hz / s * 1e6 : 0)}' \
      | tee -a "$WORK/backfill.log"
  done
  echo "infermon collections during the backfill (count/seconds, before -> after): $gc0 -> $(gcs count)/$(gcs sum)" \
    | tee -a "$WORK/backfill.log"
  cp "$WORK/fleet.yml" "$scrape_yml"
  # Reload over HTTP, not SIGHUP: a bench started under nohup passes SIGHUP on as ignored, and a
  # JVM cannot take back an ignored SIGHUP (infermon warns at start then), so SIGHUP would leave
  # infermon scraping nothing. Each side must have its targets before the warm-up starts.
  curl -fsS -X POST "http://127.0.0.1:$INFERMON_PORT/-/reload"
  curl -fsS -X POST "http://127.0.0.1:$PROM_PORT/-/reload"
  [[ -n "$vm" ]] && curl -fsS "http://127.0.0.1:$VM_PORT/-/reload" > /dev/null
  for port in $INFERMON_PORT $PROM_PORT; do
    for i in $(seq 1 30); do
      curl -fsS "http://127.0.0.1:$port/api/v1/targets" | grep -q '"scrapeUrl"' && break
      sleep 1
    done
    curl -fsS "http://127.0.0.1:$port/api/v1/targets" | grep -q '"scrapeUrl"' \
      || { echo "the server on port $port has no targets 30 s after its reload" >&2; exit 1; }
  done
  echo "live scraping from $(date -u +%T); waiting for the first block of infermon and Prometheus"
  for i in $(seq 1 600); do
    a=$(metric "http://127.0.0.1:$INFERMON_PORT/metrics" infermon_tsdb_blocks_loaded)
    b=$(metric "http://127.0.0.1:$PROM_PORT/metrics" prometheus_tsdb_blocks_loaded)
    [[ "${a:-0}" != 0 && "${b:-0}" != 0 ]] && break
    sleep 2
  done
  echo "blocks at $(date -u +%T): infermon ${a:-0}, Prometheus ${b:-0}"
fi

java -cp "$BENCH_JAR" dev.infermon.benchmarks.scrape.ScrapeVsPeers \
  "${sides[@]}" --warmup "$WARMUP" --window "$WINDOW" --interval "$INTERVAL" \
  --process "simulator (page server)=$sim_pid" | tee "$WORK/results.md"
# Where infermon's resident memory is at the end of the window: the Java heap's committed and used
# sizes (committed heap is most of the RSS, and how far it runs ahead of the live data varies
# from run to run with the timing of full collections).
jcmd "$infermon_pid" GC.heap_info 2>/dev/null | grep -E "total|Metaspace" | sed 's/^/infermon heap at the end: /' || true
# Where the rest of infermon's resident memory is (docs/benchmarks.md, "Where infermon's memory
# goes"): anonymous and file-backed RSS, the resident size of each kind of mapping, the thread
# count, and, when INFERMON_HEAP has -XX:NativeMemoryTracking=summary, the JVM's own accounting and
# a heap histogram, each written to <work>/infermon-*.txt.
grep -E "^(VmRSS|RssAnon|RssFile|RssShmem|Threads)" "/proc/$infermon_pid/status" 2>/dev/null \
  | tr -s ' \t' ' ' | sed 's/^/infermon at the end: /' || true
awk -v data="$WORK/infermon-data/" '/^[0-9a-f]+-[0-9a-f]+ / {n = ($6 == "") ? "[anon]" : $6
       if (index(n, data) == 1) { n = (n ~ /\/chunks\/[0-9]+$/) ? "block chunk files" : (n ~ /\/index$/) ? "block index files" : "head chunk segments" }
       else sub(/.*\//, "", n)}
     /^Rss:/ {rss[n] += $2} END {for (k in rss) if (rss[k] >= 1024) printf "%8.1f MiB  %s\n", rss[k] / 1024, k}' \
  "/proc/$infermon_pid/smaps" 2>/dev/null | sort -rn > "$WORK/infermon-smaps.txt" || true
if [[ "$HEAP" == *NativeMemoryTracking* ]]; then
  jcmd "$infermon_pid" VM.native_memory summary > "$WORK/infermon-nmt.txt" 2>&1 || true
  jcmd "$infermon_pid" GC.class_histogram > "$WORK/infermon-histogram.txt" 2>&1 || true
  jcmd "$infermon_pid" Thread.print > "$WORK/infermon-threads.txt" 2>&1 || true
fi
echo "targets: $(grep -c -- "- targets:" "$WORK/fleet.yml" || true) in $WORK/fleet.yml"
echo "uptime after: $(uptime)"
