package dev.infermon.simulator.router;

import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
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

/**
 * NVIDIA Dynamo's frontend ({@code python -m dynamo.frontend}, the OpenAI HTTP service in front of
 * its workers) as its {@code /metrics} reads, with the names, help texts, label names and bucket
 * defaults of ai-dynamo/dynamo lib/llm/src/http/service/metrics.rs @ 0014908a ({@code
 * Metrics::build}) and the Rust prometheus crate's text format (registry.rs {@code gather}:
 * families sorted by name, a vector without children left out, series sorted by their label values;
 * encoder/text.rs: labels sorted by name with {@code le} last, values in Rust's {@code Display},
 * {@code +Inf} last, no {@code _created}).
 *
 * <p>Every request of the pods behind is one chat completion streamed through the frontend ({@code
 * endpoint="chat_completions"}, {@code request_type="stream"}). As the InflightGuard does, its
 * start counts in {@code dynamo_frontend_requests_started_total} and, until its end, in {@code
 * dynamo_frontend_active_requests} and the deprecated twin {@code
 * dynamo_frontend_inflight_requests}; at its end, whatever the outcome, the guard's drop observes
 * {@code dynamo_frontend_request_duration_seconds} and counts {@code
 * dynamo_frontend_requests_total} by {@code status} and {@code error_type} (success with {@code
 * ""}; a failure is the guard's default {@code internal}; a client that went away {@code
 * cancelled}). The response collector observes the first token's time in {@code
 * dynamo_frontend_time_to_first_token_seconds}, the prompt and cached tokens once per request, the
 * inter-token gaps (one observation per token after the first, each the request's mean gap here)
 * and, at the end, the output length and the output tokens counter. {@code
 * dynamo_frontend_queued_requests} (the HttpQueueGuard: handler entry to first token) is the
 * engines' waiting and transferring requests, a running request being past its queue here (a
 * simulation reading: one in its first prefill step has no token yet). The frontend's own time per
 * request is 2 ms, as for the other routers (a simulation choice). {@code
 * dynamo_frontend_disconnected_clients} is always on the page (an IntGauge without labels) and
 * stays 0: the simulated clients' aborts are not modelled as disconnects.
 *
 * <p>In front of a prefill/decode pair (Dynamo's disaggregated serving), the frontend sends a
 * request to the prefill worker, waits for it, then to the decode worker, whose stream it relays:
 * one request, timed once as the user saw it ({@link PdPairs}: the prefill's time, then the decode
 * side's), in flight while the decode side holds it (a simulation reading of the two simulated
 * sides, which see the same request from the same arrival). Counters outlive a pod's restart. Not
 * thread-safe.
 */
public final class DynamoFrontend {
  /** generate_log_buckets(0.001, 480, 18): DYN_METRICS_TTFT's defaults, seconds. */
  static final double[] TTFT_BUCKETS = {
    0, 0.0022, 0.0047, 0.01, 0.022, 0.047, 0.1, 0.22, 0.47, 1, 2.2, 4.7, 10, 22, 48, 100, 220, 480
  };

  /** generate_log_buckets(0.001, 2, 13): DYN_METRICS_ITL's defaults, seconds. */
  static final double[] ITL_BUCKETS = {
    0, 0.0019, 0.0035, 0.0067, 0.013, 0.024, 0.045, 0.084, 0.16, 0.3, 0.56, 1.1, 2
  };

  /** generate_log_buckets(1, 512, 10): DYN_METRICS_REQUEST_DURATION's defaults, seconds. */
  static final double[] DURATION_BUCKETS = {0, 2, 4, 8, 16, 32, 64, 130, 260, 510};

  /**
   * generate_log_buckets(50, 128000, 12): DYN_METRICS_INPUT_SEQUENCE's, also the cached tokens'.
   */
  static final double[] INPUT_BUCKETS = {
    0, 100, 210, 430, 870, 1800, 3600, 7400, 15000, 31000, 63000, 130000
  };

  /** generate_log_buckets(50, 32000, 10): DYN_METRICS_OUTPUT_SEQUENCE's defaults, tokens. */
  static final double[] OUTPUT_BUCKETS = {0, 100, 210, 430, 880, 1800, 3700, 7600, 16000, 32000};

  private static final String PREFIX = "dynamo_frontend_";
  private static final String ENDPOINT = "chat_completions";
  private static final String STREAM = "stream";

  private final Map<String, Histogram> duration = new TreeMap<>();
  private final Map<String, Histogram> ttft = new TreeMap<>();
  private final Map<String, Histogram> itl = new TreeMap<>();
  private final Map<String, Histogram> isl = new TreeMap<>();
  private final Map<String, Histogram> osl = new TreeMap<>();
  private final Map<String, Histogram> cached = new TreeMap<>();
  private final Map<String, Long> outputTokens = new TreeMap<>();
  private final Map<String, Long> started = new TreeMap<>();
  private final Map<List<String>, Long> finished = new TreeMap<>(DynamoFrontend::byElements);
  private final Map<String, Long> lastSent = new HashMap<>();
  private final Map<String, PdPairs> pairs = new TreeMap<>();
  private final Map<String, Deque<double[]>> recent = new TreeMap<>();

  /**
   * Request {@code r} for {@code model}, which the frontend sent on, left its engine at {@code
   * now}.
   */
  public void finished(String model, Request r, FinishReason reason, double now) {
    double end = now - r.arrival();
    double first = Double.isNaN(r.firstTokenAt()) ? Double.NaN : r.firstTokenAt() - r.arrival();
    tokens(model, r, first, end);
    ended(model, reason, end, first, now);
  }

  /**
   * Request {@code r} of a prefill/decode pair serving {@code model} left the pair's {@code
   * prefill} (else decode) side at {@code now}: the decode side's answer is what the frontend
   * relays (its tokens), and once both sides have finished it the request ends as the user saw it.
   */
  public void pdFinished(
      String pair, String model, boolean prefill, Request r, FinishReason reason, double now) {
    if (!prefill) {
      double first = Double.isNaN(r.firstTokenAt()) ? Double.NaN : r.firstTokenAt() - r.arrival();
      tokens(model, r, first, now - r.arrival());
    }
    PdPairs.Joined j =
        pairs.computeIfAbsent(pair, k -> new PdPairs()).join(prefill, r, reason, now);
    if (j == null) {
      return;
    }
    PdPairs.Side p = j.prefill();
    PdPairs.Side d = j.decode();
    if (p.reason() == FinishReason.ABORT || p.reason() == FinishReason.ERROR) {
      ended(model, p.reason(), p.end(), Double.NaN, now);
      return;
    }
    double first = d.started() ? p.end() + d.first() : Double.NaN;
    ended(model, d.reason(), p.end() + d.end(), first, now);
  }

  private void tokens(String model, Request r, double first, double end) {
    isl.computeIfAbsent(model, m -> new Histogram(INPUT_BUCKETS)).observe(r.promptTokens());
    cached.computeIfAbsent(model, m -> new Histogram(INPUT_BUCKETS)).observe(r.cachedTokens());
    if (Double.isNaN(first)) {
      return;
    }
    osl.computeIfAbsent(model, m -> new Histogram(OUTPUT_BUCKETS)).observe(r.generated());
    outputTokens.merge(model, (long) r.generated(), Long::sum);
    if (r.generated() > 1) {
      long gaps = r.generated() - 1L;
      double span = Math.max(0, end - first);
      itl.computeIfAbsent(model, m -> new Histogram(ITL_BUCKETS)).observe(span / gaps, gaps, span);
    }
  }

  private void ended(String model, FinishReason reason, double end, double first, double now) {
    double seconds = end + ProductionStackRequests.OVERHEAD_SECONDS;
    duration.computeIfAbsent(model, m -> new Histogram(DURATION_BUCKETS)).observe(seconds);
    double t = Double.NaN;
    if (!Double.isNaN(first)) {
      t = first + ProductionStackRequests.OVERHEAD_SECONDS;
      ttft.computeIfAbsent(model, m -> new Histogram(TTFT_BUCKETS)).observe(t);
    }
    String status =
        reason == FinishReason.STOP || reason == FinishReason.LENGTH ? "success" : "error";
    String error =
        status.equals("success") ? "" : reason == FinishReason.ABORT ? "cancelled" : "internal";
    finished.merge(List.of(model, error, status), 1L, Long::sum);
    Deque<double[]> q = recent.computeIfAbsent(model, m -> new ArrayDeque<>());
    q.addLast(new double[] {now, seconds, t});
    while (q.peekFirst()[0] < now - ProductionStackRequests.REMEMBER_SECONDS) {
      q.removeFirst();
    }
  }

  /**
   * The ground truth of the duration ({@code ttftWanted} false) or TTFT histogram: what the
   * frontend observed for {@code model}'s requests that ended in {@code (from, to]} (epoch seconds,
   * at most 15 minutes back).
   */
  public List<Double> timed(String model, double from, double to, boolean ttftWanted) {
    List<Double> out = new ArrayList<>();
    for (double[] d : recent.getOrDefault(model, new ArrayDeque<>())) {
      double v = ttftWanted ? d[2] : d[1];
      if (d[0] > from && d[0] <= to && !Double.isNaN(v)) {
        out.add(v);
      }
    }
    return out;
  }

  /**
   * The requests in flight at the frontend behind {@code pods} at {@code now}: a regular pod's
   * running, waiting and transferring ones, a pair's through its decode side; per model, and
   * separately those without a first token (the queue), as {@code {inFlight, queued}}.
   */
  public static Map<String, int[]> inFlight(List<InferencePod> pods, double now) {
    Map<String, int[]> out = new TreeMap<>();
    for (InferencePod pod : pods) {
      if (pod.info().role().equals("prefill")) {
        continue; // a P/D request is the frontend's once, through its decode side
      }
      int[] n = out.computeIfAbsent(pod.info().model(), m -> new int[2]);
      if (!pod.up(now)) {
        continue;
      }
      for (EngineModel e : pod.engines()) {
        EngineState s = e.state();
        n[0] += s.running() + s.waiting() + s.transferring();
        n[1] += s.waiting() + s.transferring();
      }
    }
    return out;
  }

  /** The page at {@code now} (epoch seconds) for the pods behind the frontend. */
  public String render(List<InferencePod> pods, double now) {
    for (InferencePod pod : pods) {
      if (pod.info().role().equals("prefill") || !pod.up(now)) {
        continue;
      }
      long sent = LlmdEpp.sent(pod);
      String incarnation = pod.info().name() + "#" + pod.restarts();
      long gained = sent - lastSent.getOrDefault(incarnation, 0L);
      lastSent.put(incarnation, sent);
      started.merge(pod.info().model(), gained, Long::sum);
    }
    Map<String, int[]> flight = inFlight(pods, now);
    flight.keySet().retainAll(started.keySet()); // a gauge's child exists from its first request
    PromText out = new PromText(16384);
    gauge(out, "active_requests", ACTIVE_HELP, flight, 0);
    histogram(
        out, "cached_tokens", "Number of cached tokens (prefix cache hits) per request", cached);
    out.family(PREFIX + "disconnected_clients", "Number of disconnected clients", "gauge");
    out.sample(PREFIX + "disconnected_clients", new String[0], "0");
    gauge(out, "inflight_requests", "Number of inflight requests", flight, 0);
    histogram(out, "input_sequence_tokens", "Input sequence length in tokens", isl);
    histogram(out, "inter_token_latency_seconds", "Inter-token latency in seconds", itl);
    histogram(out, "output_sequence_tokens", "Output sequence length in tokens", osl);
    if (!outputTokens.isEmpty()) {
      String name = PREFIX + "output_tokens_total";
      out.family(name, "Total number of output tokens generated (updates in real-time)", "counter");
      outputTokens.forEach((m, n) -> out.sample(name, new String[] {"model", m}, Long.toString(n)));
    }
    gauge(out, "queued_requests", "Number of requests in HTTP processing queue", flight, 1);
    histogram(out, "request_duration_seconds", "Duration of LLM requests", duration);
    if (!started.isEmpty()) {
      String name = PREFIX + "requests_started_total";
      out.family(name, "Total number of LLM requests accepted by the frontend handler", "counter");
      started.forEach(
          (m, n) ->
              out.sample(
                  name,
                  new String[] {"endpoint", ENDPOINT, "model", m, "request_type", STREAM},
                  Long.toString(n)));
    }
    if (!finished.isEmpty()) {
      String name = PREFIX + "requests_total";
      out.family(name, "Total number of LLM requests processed", "counter");
      // sorted by label values in label-name order: endpoint, error_type, model, request_type,
      // status; endpoint and request_type are the same for all
      Map<List<String>, Long> byValues = new TreeMap<>(DynamoFrontend::byElements);
      finished.forEach((k, n) -> byValues.put(List.of(k.get(1), k.get(0), k.get(2)), n));
      byValues.forEach(
          (k, n) ->
              out.sample(
                  name,
                  new String[] {
                    "endpoint", ENDPOINT,
                    "error_type", k.get(0),
                    "model", k.get(1),
                    "request_type", STREAM,
                    "status", k.get(2)
                  },
                  Long.toString(n)));
    }
    histogram(out, "time_to_first_token_seconds", "Time to first token in seconds", ttft);
    return out.toString();
  }

  private static final String ACTIVE_HELP =
      "Number of requests currently being handled by the frontend, from HTTP handler entry to"
          + " response completion";

  private static void gauge(
      PromText out, String suffix, String help, Map<String, int[]> values, int i) {
    if (values.isEmpty()) {
      return;
    }
    out.family(PREFIX + suffix, help, "gauge");
    values.forEach(
        (m, v) -> out.sample(PREFIX + suffix, new String[] {"model", m}, Integer.toString(v[i])));
  }

  /** A HistogramVec by model: buckets with {@code le} after {@code model}, then _sum, _count. */
  private static void histogram(
      PromText out, String suffix, String help, Map<String, Histogram> byModel) {
    if (byModel.isEmpty()) {
      return;
    }
    String name = PREFIX + suffix;
    out.family(name, help, "histogram");
    byModel.forEach(
        (m, h) -> {
          for (int i = 0; i <= h.size(); i++) {
            String le = i == h.size() ? "+Inf" : RustFloat.format(h.bound(i));
            out.sample(
                name + "_bucket",
                new String[] {"model", m, "le", le},
                Long.toString(h.cumulative(i)));
          }
          String[] labels = {"model", m};
          out.sample(name + "_sum", labels, RustFloat.format(h.sum()));
          out.sample(name + "_count", labels, Long.toString(h.count()));
        });
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
}
