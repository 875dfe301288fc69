package dev.infermon.simulator.router;

import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PromText;
import dev.infermon.simulator.text.RustFloat;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The SGLang Model Gateway's {@code /metrics} (port 29000) as its HTTP router writes it in front of
 * SGLang workers with the default {@code --policy cache_aware}: names, help texts, labels and
 * buckets of lightseekorg/smg model_gateway/src/observability/metrics.rs @ 73da68ca (init_metrics,
 * start_prometheus, record_router_request, record_router_duration, set_worker_requests_active,
 * set_worker_health, set_worker_pool_size, record_http_request), in the metrics-exporter-prometheus
 * 0.18 text format (recorder.rs render_to_write @ metrics-rs/metrics dae3a67d): counters, then
 * gauges, then histograms, each family followed by an empty line, labels in the order the macro
 * names them, values in Rust's {@code Display} and no {@code _created}. The exporter walks hash
 * maps, so its family order varies by process; this page sorts by name.
 *
 * <p>What the HTTP router does not write is left out: {@code smg_worker_selection_total} is
 * recorded on the gRPC pipeline only (routers/grpc/common/stages/worker_selection.rs), as are
 * {@code smg_router_ttft_seconds} and {@code smg_router_tpot_seconds}; the priority scheduler's
 * {@code smg_scheduler_*} exist only when it is enabled. The worker's in-flight gauge is the
 * router's load count (worker.rs update_running_requests_metrics): every request sent and not yet
 * answered, the engine's queue included. A request's duration is recorded when it succeeds
 * (router.rs), from arrival to its last byte. Counters outlive a worker's restart. Not thread-safe.
 */
public final class SmgRouter {
  /** start_prometheus's default duration buckets (also TTFT and TPOT), seconds. */
  static final double[] DURATION_BUCKETS = {
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0, 30.0, 45.0, 60.0,
    90.0, 120.0, 180.0, 240.0, 300.0, 480.0, 900.0, 1200.0, 1800.0, 2700.0, 3600.0, 5400.0, 7200.0
  };

  /** How long {@link #durations} remembers a request, seconds. */
  static final double REMEMBER_SECONDS = 900;

  private static final String CHAT_PATH = "/v1/chat/completions";
  private final Map<String, Histogram> durationByModel = new TreeMap<>();
  private final Map<String, Deque<double[]>> recent = new HashMap<>();
  private final Map<String, Long> routedByModel = new TreeMap<>();
  private final Map<String, Long> lastSent = new HashMap<>();
  private long httpRequests;
  private Function<InferencePod, String> urls = SmgRouter::workerUrl;

  /**
   * The worker URL a pod is registered under by default ({@code --worker-urls}): the address the
   * simulated pods are scraped at ({@code <pod>:8000}), since SGLang serves {@code /metrics} on the
   * port the gateway sends requests to.
   */
  public static String workerUrl(InferencePod pod) {
    return "http://" + pod.info().name() + ":8000";
  }

  /** The URL the gateway knows each worker by from now on ({@code http://host:port}). */
  public void urls(Function<InferencePod, String> v) {
    urls = v;
  }

  /**
   * A request for {@code model} the gateway forwarded left its worker {@code seconds} after it
   * arrived, at {@code now}; only a successful one is timed (router.rs records the duration on
   * success).
   */
  public void finished(String model, double seconds, boolean succeeded, double now) {
    if (!succeeded) {
      return;
    }
    durationByModel.computeIfAbsent(model, m -> new Histogram(DURATION_BUCKETS)).observe(seconds);
    Deque<double[]> r = recent.computeIfAbsent(model, m -> new ArrayDeque<>());
    r.addLast(new double[] {now, seconds});
    while (r.peekFirst()[0] < now - REMEMBER_SECONDS) {
      r.removeFirst();
    }
  }

  /**
   * The ground truth behind the duration histogram: the durations of {@code model}'s successful
   * requests that finished in {@code (from, to]} (epoch seconds, at most 15 minutes back).
   */
  public List<Double> durations(String model, double from, double to) {
    List<Double> out = new ArrayList<>();
    for (double[] d : recent.getOrDefault(model, new ArrayDeque<>())) {
      if (d[0] > from && d[0] <= to) {
        out.add(d[1]);
      }
    }
    return out;
  }

  /** The page at {@code now} (epoch seconds) for the workers behind the gateway. */
  public String render(List<InferencePod> pods, double now) {
    Map<String, String> health = new TreeMap<>();
    Map<String, String> active = new TreeMap<>();
    Map<String, Integer> poolSize = new TreeMap<>();
    for (InferencePod pod : pods) {
      String url = urls.apply(pod);
      String model = pod.info().model();
      poolSize.merge(model, 1, Integer::sum);
      boolean up = pod.up(now);
      health.put(url, up ? "1" : "0");
      if (!up) {
        active.put(url, "0"); // the failed requests were answered with errors: load back to 0
        continue;
      }
      int load = 0;
      for (EngineModel e : pod.engines()) {
        EngineState s = e.state();
        load += s.running() + s.waiting() + s.transferring();
      }
      active.put(url, RustFloat.format(load));
      long sent = LlmdEpp.sent(pod);
      String incarnation = pod.info().name() + "#" + pod.restarts();
      long gained = sent - lastSent.getOrDefault(incarnation, 0L);
      lastSent.put(incarnation, sent);
      routedByModel.merge(model, gained, Long::sum);
      httpRequests += gained;
    }
    StringBuilder out = new StringBuilder(8192);
    counters(out);
    gauges(out, health, active, poolSize);
    histograms(out);
    return out.toString();
  }

  private void counters(StringBuilder out) {
    family(out, "smg_http_requests_total", "Total HTTP requests by method and path", "counter");
    sample(
        out,
        "smg_http_requests_total",
        Long.toString(httpRequests),
        "method",
        "POST",
        "path",
        CHAT_PATH);
    out.append('\n');
    family(
        out,
        "smg_router_requests_total",
        "Total routed requests by router_type, backend_type, connection_mode, model, endpoint,"
            + " streaming",
        "counter");
    routedByModel.forEach(
        (model, n) ->
            sample(out, "smg_router_requests_total", Long.toString(n), route(model, "true")));
    out.append('\n');
  }

  private static void gauges(
      StringBuilder out,
      Map<String, String> health,
      Map<String, String> active,
      Map<String, Integer> poolSize) {
    family(out, "smg_worker_health", "Worker health status (1=healthy, 0=unhealthy)", "gauge");
    health.forEach((url, v) -> sample(out, "smg_worker_health", v, "worker", url));
    out.append('\n');
    family(
        out,
        "smg_worker_pool_size",
        "Current worker pool size by worker_type, connection_mode, model",
        "gauge");
    poolSize.forEach(
        (model, n) ->
            sample(
                out,
                "smg_worker_pool_size",
                RustFloat.format(n),
                "worker_type",
                "regular",
                "connection_mode",
                "http",
                "model",
                model));
    out.append('\n');
    family(out, "smg_worker_requests_active", "Currently running requests per worker", "gauge");
    active.forEach((url, v) -> sample(out, "smg_worker_requests_active", v, "worker", url));
    out.append('\n');
  }

  private void histograms(StringBuilder out) {
    if (durationByModel.isEmpty()) {
      return; // a histogram exists from its first observation on
    }
    String name = "smg_router_request_duration_seconds";
    family(
        out,
        name,
        "Router request duration by router_type, backend_type, connection_mode, model, endpoint",
        "histogram");
    durationByModel.forEach(
        (model, h) -> {
          String[] labels = route(model, null);
          for (int i = 0; i <= h.size(); i++) {
            String le = i == h.size() ? "+Inf" : RustFloat.format(h.bound(i));
            String[] withLe = java.util.Arrays.copyOf(labels, labels.length + 2);
            withLe[labels.length] = "le";
            withLe[labels.length + 1] = le;
            sample(out, name + "_bucket", Long.toString(h.cumulative(i)), withLe);
          }
          sample(out, name + "_sum", RustFloat.format(h.sum()), labels);
          sample(out, name + "_count", Long.toString(h.count()), labels);
        });
    out.append('\n');
  }

  /** The HTTP router's labels (router.rs: http, regular, http; the chat endpoint). */
  private static String[] route(String model, String streaming) {
    List<String> l =
        new ArrayList<>(
            List.of(
                "router_type",
                "http",
                "backend_type",
                "regular",
                "connection_mode",
                "http",
                "model",
                model,
                "endpoint",
                "chat"));
    if (streaming != null) {
      l.add("streaming");
      l.add(streaming);
    }
    return l.toArray(new String[0]);
  }

  private static void family(StringBuilder out, String name, String help, String type) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(StringBuilder out, String name, String value, String... pairs) {
    out.append(name).append(PromText.labelText(pairs)).append(' ').append(value).append('\n');
  }
}
