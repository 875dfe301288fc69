package dev.infermon.simulator.router;

import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PromText;
import dev.infermon.simulator.text.RustFloat;
import java.util.ArrayList;
import java.util.Arrays;
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
 * answered, the engine's queue included. A streaming request's duration is recorded at the worker's
 * response head (router.rs line 393), which SGLang sends with the first token: from arrival to the
 * first token, not to the stream's end ({@link #finished}). Counters outlive a worker's restart.
 *
 * <p>In front of SGLang prefill/decode pairs the gateway is its PD router
 * (routers/http/pd_router.rs @ 73da68ca), with {@code backend_type="pd"}: per request one {@code
 * smg_router_requests_total}, one {@code smg_worker_selection_total} for each leg ({@code
 * worker_type} prefill and decode, policy {@code cache_aware}, line 878-889), both workers' load
 * counts (line 625-628), and on success {@code smg_pd_ttft_seconds} (line 718, the decode
 * response's head), {@code smg_pd_prefill_duration_seconds} (line 737, the prefill leg drained) and
 * the router duration (line 480, when the response is handed back: after both), each {@code
 * {backend_type, model, runtime="sglang"}} (the runtime detect_backend.rs reads from /v1/models'
 * owned_by). The decode server sends its head with its first chunk (SGLang's serving_chat.py
 * kick-starts the stream, #21900), which needs the prefill's KV: so the head comes at the prefill
 * side's end plus the decode side's own wait to its first token ({@link PdPairs}). Not thread-safe.
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

  /** The policy both legs default to ({@code --policy cache_aware}; cache_aware.rs name()). */
  private static final String POLICY = "cache_aware";

  private final SmgTimings durations = new SmgTimings();
  private final SmgTimings pdDurations = new SmgTimings();
  private final SmgTimings pdTtfts = new SmgTimings();
  private final SmgTimings pdPrefills = new SmgTimings();
  private final Map<String, PdPairs> pairs = new TreeMap<>();
  private final Map<String, Long> routedByModel = new TreeMap<>();
  private final Map<String, Long> pdRoutedByModel = new TreeMap<>();
  private final Map<List<String>, Long> selections = new TreeMap<>(SmgRouter::byElements);
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
   * Request {@code r} for {@code model}, which the gateway forwarded to a regular worker, left it
   * at {@code now}. router.rs records the duration when route_typed_request_once returns (line
   * 393), which for a streaming request is at the worker's response head (send_typed_request hands
   * the body to a relay task, line 1065-1107), and SGLang sends that head with the stream's first
   * chunk, the first token (serving_chat.py, #21900): so a request is timed from its arrival to its
   * first token, if it had one and did not fail. The observation is made here, at its end.
   */
  public void finished(String model, Request r, FinishReason reason, double now) {
    if (reason != FinishReason.ERROR && !Double.isNaN(r.firstTokenAt())) {
      durations.observe(model, r.firstTokenAt() - r.arrival(), now);
    }
  }

  /**
   * Request {@code r} for {@code model} left the {@code prefill} (else the decode) side of pair
   * {@code pair} at {@code now}. Once both sides have, the PD router's timings are recorded as
   * pd_router.rs does: the TTFT when the decode head came and was a success (line 702-723), which a
   * decode side that failed or was aborted before its first token never sent; the prefill leg and
   * the duration only when, beyond that, the prefill's answer was drained (line 725-742, 477-487),
   * which a prefill side that failed or was aborted never gave.
   */
  public void pdFinished(
      String pair, String model, boolean prefill, Request r, FinishReason reason, double now) {
    PdPairs.Joined j =
        pairs.computeIfAbsent(pair, k -> new PdPairs()).join(prefill, r, reason, now);
    if (j == null || j.decode().reason() == FinishReason.ERROR || !j.decode().started()) {
      return;
    }
    double ttft = j.prefill().end() + j.decode().first();
    pdTtfts.observe(model, ttft, now);
    FinishReason p = j.prefill().reason();
    if (p == FinishReason.ERROR || p == FinishReason.ABORT) {
      return;
    }
    pdPrefills.observe(model, j.prefill().end(), now);
    pdDurations.observe(model, Math.max(ttft, j.prefill().end()), now);
  }

  /**
   * The ground truth behind the duration histogram: the durations of {@code model}'s successful
   * requests that finished in {@code (from, to]} (epoch seconds, at most 15 minutes back).
   */
  public List<Double> durations(String model, double from, double to) {
    return durations.between(model, from, to);
  }

  /**
   * The ground truth behind the PD router's histograms, as {@link #durations}: {@code
   * smg_pd_ttft_seconds} ({@code ttft}), else {@code smg_router_request_duration_seconds{
   * backend_type="pd"}}.
   */
  public List<Double> pdTimed(String model, double from, double to, boolean ttft) {
    return (ttft ? pdTtfts : pdDurations).between(model, from, to);
  }

  /** The page at {@code now} (epoch seconds) for the workers behind the gateway. */
  public String render(List<InferencePod> pods, double now) {
    Map<String, String> health = new TreeMap<>();
    Map<String, String> active = new TreeMap<>();
    Map<List<String>, Integer> poolSize = new TreeMap<>(SmgRouter::byElements);
    Map<String, Integer> pairLoad = pairLoads(pods, now);
    for (InferencePod pod : pods) {
      String url = urls.apply(pod);
      String model = pod.info().model();
      String role = pod.info().role();
      poolSize.merge(List.of(role.isEmpty() ? "regular" : role, model), 1, Integer::sum);
      boolean up = pod.up(now);
      health.put(url, up ? "1" : "0");
      if (!up) {
        active.put(url, "0"); // the failed requests were answered with errors: load back to 0
        continue;
      }
      int load = role.isEmpty() ? load(pod) : pairLoad.getOrDefault(pod.info().workloadName(), 0);
      active.put(url, RustFloat.format(load));
      long sent = LlmdEpp.sent(pod);
      String incarnation = pod.info().name() + "#" + pod.restarts();
      long gained = sent - lastSent.getOrDefault(incarnation, 0L);
      lastSent.put(incarnation, sent);
      if (role.isEmpty()) {
        routedByModel.merge(model, gained, Long::sum);
        httpRequests += gained;
        continue;
      }
      // both legs get every PD request: it is counted once, through its decode leg
      selections.merge(List.of(role, model), gained, Long::sum);
      if (role.equals("decode")) {
        pdRoutedByModel.merge(model, gained, Long::sum);
        httpRequests += gained;
      }
    }
    StringBuilder out = new StringBuilder(8192);
    counters(out);
    gauges(out, health, active, poolSize);
    histograms(out);
    return out.toString();
  }

  /** Requests sent and not yet answered: the engine's running, queued and transferring. */
  private static int load(InferencePod pod) {
    int load = 0;
    for (EngineModel e : pod.engines()) {
      EngineState s = e.state();
      load += s.running() + s.waiting() + s.transferring();
    }
    return load;
  }

  /**
   * Per pair (workload), the PD requests the gateway has in flight: both legs' load guards are
   * taken at dispatch and attached to the response body (pd_router.rs line 625-628, 765), so each
   * worker counts a request until its decode stream ends, the prefill worker too. That is the
   * decode side's load, which holds every request from dispatch (its KV wait included) to its end;
   * 0 while the decode pod is down, whose requests were answered with errors.
   */
  private static Map<String, Integer> pairLoads(List<InferencePod> pods, double now) {
    Map<String, Integer> out = new HashMap<>();
    for (InferencePod pod : pods) {
      if (pod.info().role().equals("decode") && pod.up(now)) {
        out.merge(pod.info().workloadName(), load(pod), Integer::sum);
      }
    }
    return out;
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
            sample(
                out,
                "smg_router_requests_total",
                Long.toString(n),
                route("regular", model, "true")));
    pdRoutedByModel.forEach(
        (model, n) ->
            sample(out, "smg_router_requests_total", Long.toString(n), route("pd", model, "true")));
    out.append('\n');
    if (selections.isEmpty()) {
      return; // the HTTP regular router records no selection (gRPC pipeline only)
    }
    family(
        out,
        "smg_worker_selection_total",
        "Worker selection events by worker_type, connection_mode, model, policy",
        "counter");
    selections.forEach(
        (key, n) ->
            sample(
                out,
                "smg_worker_selection_total",
                Long.toString(n),
                "worker_type",
                key.get(0),
                "connection_mode",
                "http",
                "model",
                key.get(1),
                "policy",
                POLICY));
    out.append('\n');
  }

  private static void gauges(
      StringBuilder out,
      Map<String, String> health,
      Map<String, String> active,
      Map<List<String>, Integer> poolSize) {
    family(out, "smg_worker_health", "Worker health status (1=healthy, 0=unhealthy)", "gauge");
    health.forEach((url, v) -> sample(out, "smg_worker_health", v, "worker", url));
    out.append('\n');
    family(
        out,
        "smg_worker_pool_size",
        "Current worker pool size by worker_type, connection_mode, model",
        "gauge");
    poolSize.forEach(
        (key, n) ->
            sample(
                out,
                "smg_worker_pool_size",
                RustFloat.format(n),
                "worker_type",
                key.get(0),
                "connection_mode",
                "http",
                "model",
                key.get(1)));
    out.append('\n');
    family(out, "smg_worker_requests_active", "Currently running requests per worker", "gauge");
    active.forEach((url, v) -> sample(out, "smg_worker_requests_active", v, "worker", url));
    out.append('\n');
  }

  private void histograms(StringBuilder out) {
    pd(
        out,
        "smg_pd_prefill_duration_seconds",
        "Prefill-leg RPC duration by backend_type, model, runtime",
        pdPrefills);
    pd(
        out,
        "smg_pd_ttft_seconds",
        "Honest end-to-end TTFT (prefill start to first decode token) by backend_type, model,"
            + " runtime",
        pdTtfts);
    if (durations.histograms().isEmpty() && pdDurations.histograms().isEmpty()) {
      return; // a histogram exists from its first observation on
    }
    String name = "smg_router_request_duration_seconds";
    family(
        out,
        name,
        "Router request duration by router_type, backend_type, connection_mode, model, endpoint",
        "histogram");
    durations
        .histograms()
        .forEach((model, h) -> series(out, name, h, route("regular", model, null)));
    pdDurations.histograms().forEach((model, h) -> series(out, name, h, route("pd", model, null)));
    out.append('\n');
  }

  /** A PD family ({@code backend_type, model, runtime}: metrics.rs record_pd_*). */
  private static void pd(StringBuilder out, String name, String help, SmgTimings t) {
    if (t.histograms().isEmpty()) {
      return;
    }
    family(out, name, help, "histogram");
    t.histograms()
        .forEach(
            (model, h) ->
                series(out, name, h, "backend_type", "pd", "model", model, "runtime", "sglang"));
    out.append('\n');
  }

  private static void series(StringBuilder out, String name, Histogram h, String... labels) {
    for (int i = 0; i <= h.size(); i++) {
      String le = i == h.size() ? "+Inf" : RustFloat.format(h.bound(i));
      String[] withLe = Arrays.copyOf(labels, labels.length + 2);
      withLe[labels.length] = "le";
      withLe[labels.length + 1] = le;
      sample(out, name + "_bucket", Long.toString(h.cumulative(i)), withLe);
    }
    sample(out, name + "_sum", RustFloat.format(h.sum()), labels);
    sample(out, name + "_count", Long.toString(h.count()), labels);
  }

  /** The HTTP routers' labels (router.rs, pd_router.rs: http, regular or pd, http; chat). */
  private static String[] route(String backendType, String model, String streaming) {
    List<String> l =
        new ArrayList<>(
            List.of(
                "router_type",
                "http",
                "backend_type",
                backendType,
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

  private static int byElements(List<String> a, List<String> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = a.get(i).compareTo(b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static void family(StringBuilder out, String name, String help, String type) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(StringBuilder out, String name, String value, String... pairs) {
    out.append(name).append(PromText.labelText(pairs)).append(' ').append(value).append('\n');
  }
}
