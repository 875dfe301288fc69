package dev.infermon.simulator.router;

import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.PromText;
import dev.infermon.simulator.text.PythonFamilies;
import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonProcess;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The vLLM production-stack router's {@code /metrics} in front of vLLM pods. Names, help texts,
 * labels and types are those of vllm-project/production-stack
 * src/vllm_router/services/metrics_service/__init__.py and routers/metrics_router.py @ a6c01db0:
 * per-backend gauges under the engine's own {@code vllm:} prefix with a {@code server} label (the
 * backend URL), set on every scrape from the router's request stats. The router only sees requests
 * it forwarded: one waiting in an engine's queue is, to the router, "in prefill" (sent, no first
 * token yet), so its {@code vllm:num_requests_running} is the engine's running plus waiting. {@code
 * vllm:num_requests_waiting} is declared but never set, so it prints without samples. QPS is the
 * arrivals in the last {@code --request-stats-window} (default 60 s) over the window. The requests
 * it forwarded are timed and their tokens counted as request.py does ({@link
 * ProductionStackRequests}: {@code vllm:request_latency_seconds}, #940, and the #813 counters). The
 * page is {@code generate_latest()} of prometheus_client's default registry (metrics_router.py @
 * 02605e69): first the collectors prometheus_client registers on import ({@code python_gc_*},
 * {@code python_info}, {@code process_*}; the image is python:3.12-slim, docker/Dockerfile @
 * 13845ce2), then metrics_service's families, then metrics_router.py's own unlabelled {@code
 * router_cpu_usage_percent}, {@code router_memory_usage_percent} and {@code
 * router_disk_usage_percent}, which psutil reads on every scrape ({@code
 * cpu_percent(interval=0.1)}, {@code virtual_memory().percent}, {@code disk_usage("/").percent}:
 * one decimal). It leaves out the V0 prefix-cache gauges the router copies from the engines' pages
 * (0 against V1 engines). Not thread-safe.
 */
public final class ProductionStackRouter {
  /**
   * The router's Python: python:3.12-slim's line (docker/Dockerfile @ 13845ce2); the patch level is
   * a simulation choice, the tag floats.
   */
  static final String PYTHON = "3.12.12";

  /** The router's default {@code --request-stats-window}, seconds (parsers/parser.py). */
  static final double WINDOW_SECONDS = 60;

  private final double created;
  private final Map<String, Deque<double[]>> arrivals = new HashMap<>();
  private final Map<String, Long> lastSent = new HashMap<>();
  private final Map<String, Long> incoming = new java.util.LinkedHashMap<>();
  private final ProductionStackRequests requests = new ProductionStackRequests();
  private java.util.function.Function<VllmPod, String> urls = ProductionStackRouter::serverUrl;

  /** A router started at {@code createdEpoch}. */
  public ProductionStackRouter(double createdEpoch) {
    this.created = createdEpoch;
  }

  /**
   * Request {@code r}, which the router forwarded to {@code pod}, left its engine at {@code now}.
   */
  public void finished(VllmPod pod, Request r, FinishReason reason, double now) {
    requests.finished(pod, r, reason, now);
  }

  /**
   * The ground truth of {@code vllm:request_latency_seconds}: the latencies the router observed for
   * {@code model}'s requests that finished in {@code (from, to]} (epoch seconds, at most 15 minutes
   * back).
   */
  public List<Double> latencies(String model, double from, double to) {
    return requests.latencies(model, from, to);
  }

  /**
   * The URL the router knows each pod by from now on: as production-stack's pod-IP discovery builds
   * it, {@code http://<address the pod is scraped at>} (service_discovery.py @ a6c01db0).
   */
  public void urls(java.util.function.Function<VllmPod, String> v) {
    urls = v;
  }

  /** The URL the router knows a pod by by default: its {@code server} label. */
  public static String serverUrl(VllmPod pod) {
    return "http://" + pod.info().name() + ":8000";
  }

  /** Requests this pod was sent since it started: finished plus in flight. */
  static long sent(VllmPod pod) {
    return LlmdEpp.sent(pod);
  }

  /** Per family, the children the router sets on a scrape (metrics_router.py). */
  private record Stats(
      List<Child> running,
      List<Child> prefill,
      List<Child> decoding,
      List<Child> qps,
      List<Child> healthy,
      List<Child> avgLatency,
      List<Child> unset,
      List<Child> swapped) {
    Stats() {
      this(
          new ArrayList<>(),
          new ArrayList<>(),
          new ArrayList<>(),
          new ArrayList<>(),
          new ArrayList<>(),
          new ArrayList<>(),
          new ArrayList<>(),
          new ArrayList<>());
    }
  }

  /** The page at {@code now} (epoch seconds) for the pods behind the router. */
  public String render(List<VllmPod> pods, double now) {
    Stats st = collect(pods, now);
    PromText out = new PromText(8192);
    new PythonProcess(PYTHON, created, now, 3.1e8, 1.9e9, 1048576).write(out);
    PythonFamilies f = new PythonFamilies(out, false, true);
    f.gauge("vllm:num_requests_running", "Number of running requests", st.running());
    f.gauge("vllm:num_requests_waiting", "Number of waiting requests", List.of());
    f.gauge("vllm:current_qps", "Current Queries Per Second", st.qps());
    f.gauge("vllm:avg_decoding_length", "Average Decoding Length", st.unset());
    f.gauge("vllm:num_prefill_requests", "Number of Prefill Requests", st.prefill());
    f.gauge("vllm:num_decoding_requests", "Number of Decoding Requests", st.decoding());
    List<Child> byModel = new ArrayList<>();
    incoming.forEach((m, n) -> byModel.add(new Child(new String[] {"model", m}, n, created)));
    f.counter(
        "vllm:num_incoming_requests",
        "Total valid incoming requests to router (including when no backends available).",
        byModel);
    f.gauge("vllm:healthy_pods_total", "Number of healthy vLLM pods", st.healthy());
    f.gauge("vllm:avg_latency", "Average end-to-end request latency", st.avgLatency());
    f.gauge("vllm:avg_itl", "Average Inter-Token Latency", st.unset());
    f.gauge("vllm:num_requests_swapped", "Number of swapped requests", st.swapped());
    requests.write(f, urls);
    host(f, st);
    return out.toString();
  }

  /**
   * psutil's readings of the router's host, one decimal as psutil rounds them: the CPU grows with
   * the requests the router proxies, memory and disk stay near a level (simulation choices; no
   * source gives figures).
   */
  private void host(PythonFamilies f, Stats st) {
    double qps = 0;
    for (Child c : st.qps()) {
      qps += c.value();
    }
    double cpu = Math.min(100, 1.2 + 0.35 * qps);
    String[] none = new String[0];
    f.gauge(
        "router_cpu_usage_percent",
        "CPU usage percent",
        List.of(new Child(none, Math.round(cpu * 10) / 10.0, created)));
    f.gauge(
        "router_memory_usage_percent",
        "Memory usage percent",
        List.of(new Child(none, 37.4, created)));
    f.gauge(
        "router_disk_usage_percent", "Disk usage percent", List.of(new Child(none, 61.8, created)));
  }

  /**
   * What request_stats.py's get_request_stats gives per server that was sent a request:
   * avg_decoding_length and avg_itl are -1 (no code path updates them), no swap is ever reported
   * (0), avg_latency is the mean over the latency window ({@link ProductionStackRequests}).
   */
  private Stats collect(List<VllmPod> pods, double now) {
    Stats st = new Stats();
    for (VllmPod pod : pods) {
      String[] server = {"server", urls.apply(pod)};
      boolean up = pod.up(now);
      st.healthy().add(new Child(server, up ? 1 : 0, created));
      if (!up) {
        continue;
      }
      int waiting = 0;
      int inBatch = 0;
      for (EngineModel e : pod.engines()) {
        EngineState s = e.state();
        waiting += s.waiting() + s.transferring();
        inBatch += s.running();
      }
      long sent = sent(pod);
      countIncoming(pod.info().model(), server[1] + "#" + pod.restarts(), sent);
      st.prefill().add(new Child(server, waiting, created));
      st.decoding().add(new Child(server, inBatch, created));
      st.running().add(new Child(server, waiting + inBatch, created));
      st.qps().add(new Child(server, qps(server[1], sent, now), created));
      st.avgLatency().add(new Child(server, requests.averageLatency(pod), created));
      st.unset().add(new Child(server, -1, created));
      st.swapped().add(new Child(server, 0, created));
    }
    return st;
  }

  /**
   * The router's counter outlives a pod's restart, which resets what the pod was sent; {@code
   * incarnation} names the pod and its restart count.
   */
  private void countIncoming(String model, String incarnation, long sent) {
    incoming.merge(model, sent - lastSent.getOrDefault(incarnation, 0L), Long::sum);
    lastSent.put(incarnation, sent);
  }

  private double qps(String server, long sent, double now) {
    Deque<double[]> window = arrivals.computeIfAbsent(server, s -> new ArrayDeque<>());
    if (!window.isEmpty() && sent < window.peekLast()[1]) {
      window.clear(); // the pod restarted: its count starts again
    }
    window.addLast(new double[] {now, sent});
    while (window.size() > 1 && window.peekFirst()[0] < now - WINDOW_SECONDS) {
      window.removeFirst();
    }
    double[] first = window.peekFirst();
    return (sent - first[1]) / WINDOW_SECONDS;
  }
}
