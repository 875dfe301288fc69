package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.router.LlmdEpp;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PromText;
import dev.infermon.simulator.text.RustFloat;
import java.util.List;

/**
 * The system server page ({@code DYN_SYSTEM_PORT}'s {@code /metrics}) of an NVIDIA Dynamo worker
 * ({@code python -m dynamo.vllm}, {@code dynamo.sglang}) that runs a pod's engine behind Dynamo's
 * frontend: the runtime registry's text, then the engine's own prometheus_client text filtered to
 * its prefixes (system_status_server.rs @ 0116f785 metrics_handler; metrics.rs prometheus_expfmt:
 * the encoder's output, then the expfmt callbacks' text; prometheus.py @ 041ec8b0
 * get_prometheus_expfmt).
 *
 * <p>The runtime's part is the work handler's families of push_handler.rs @ c3c46316 ({@code
 * WorkHandlerMetrics::from_endpoint}) for the worker's two endpoints, {@code generate} and {@code
 * clear_kv_blocks}, each served with {@code metrics_labels=[("model", served_model_name)]}: an
 * IntCounter, IntGauge and Histogram whose hierarchy labels and {@code model} are const labels, on
 * the page at 0 from the start; the errors IntCounterVec has no child until a first error, which
 * the simulator's engines never raise here, so it is absent. The Rust prometheus crate writes them
 * (families sorted by name, labels by name, {@code le} last, integers without a fraction, no {@code
 * _created}); the duration histogram has the crate's default buckets (c3c46316 passes None). A
 * request counts on arrival and is in flight until its response stream ends; its duration is
 * observed then. The runtime's other families (uptime, NATS client and service, task tracker) are
 * not written.
 *
 * <p>Request and response bytes are the simulator's estimate (the payload's JSON is not modelled):
 * a request of n prompt tokens is 256 + 6n bytes (the token ids of a preprocessed request), each
 * streamed response 128 bytes per generated token plus a final 40; both counted when the request
 * ends. A restart of the pod is a new process: the runtime's counts start again. Not thread-safe.
 */
final class DynamoWorker {
  /** The Rust prometheus crate's DEFAULT_BUCKETS, seconds. */
  static final double[] DEFAULT_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private static final String PREFIX = "dynamo_component_";
  private static final String NAMESPACE = "dynamo"; // DYN_NAMESPACE's default
  private static final List<String> ENDPOINTS = List.of("clear_kv_blocks", "generate");

  private final InferencePod pod;
  private final List<String> enginePrefixes;
  private int incarnation = -1;
  private Histogram duration;
  private long requestBytes;
  private long responseBytes;

  /**
   * The worker around {@code pod}, whose engine families are those starting with one of {@code
   * enginePrefixes} (dynamo.vllm: {@code vllm:} and {@code lmcache:}; dynamo.sglang: {@code
   * sglang:}).
   */
  DynamoWorker(InferencePod pod, List<String> enginePrefixes) {
    this.pod = pod;
    this.enginePrefixes = List.copyOf(enginePrefixes);
  }

  /** The worker of a vLLM or SGLang pod. */
  static DynamoWorker of(InferencePod pod) {
    return new DynamoWorker(
        pod, pod instanceof SglangPod ? List.of("sglang:") : List.of("vllm:", "lmcache:"));
  }

  /** The Dynamo component the worker registers: {@code prefill}, else {@code backend}. */
  String component() {
    return pod.info().role().equals("prefill") ? "prefill" : "backend";
  }

  /** Request {@code r} left the pod's engine at {@code now}: its stream ended. */
  void finished(Request r, double now) {
    fresh();
    duration.observe(Math.max(0, now - r.arrival()));
    requestBytes += 256 + 6L * r.promptTokens();
    responseBytes += 128L * r.generated() + 40;
  }

  private void fresh() {
    if (incarnation != pod.restarts()) {
      incarnation = pod.restarts();
      duration = new Histogram(DEFAULT_BUCKETS);
      requestBytes = 0;
      responseBytes = 0;
    }
  }

  /** The page: the runtime's families, then {@code enginePage}'s lines of the engine's prefixes. */
  String page(String enginePage) {
    fresh();
    long arrived = LlmdEpp.sent(pod);
    long inFlight = 0;
    for (EngineModel e : pod.engines()) {
      EngineState s = e.state();
      inFlight += s.running() + s.waiting() + s.transferring();
    }
    PromText out = new PromText(enginePage.length() + 4096);
    counter(out, "inflight_requests", INFLIGHT_HELP, "gauge", inFlight);
    counter(out, "request_bytes_total", REQUEST_BYTES_HELP, "counter", requestBytes);
    histogram(out);
    counter(out, "requests_total", REQUESTS_HELP, "counter", arrived);
    counter(out, "response_bytes_total", RESPONSE_BYTES_HELP, "counter", responseBytes);
    StringBuilder page = new StringBuilder(out.toString());
    appendEngine(page, enginePage);
    return page.toString();
  }

  private static final String INFLIGHT_HELP =
      "Number of requests currently being processed by work handler";
  private static final String REQUEST_BYTES_HELP =
      "Total number of bytes received in requests by work handler";
  private static final String REQUESTS_HELP = "Total number of requests processed by work handler";
  private static final String RESPONSE_BYTES_HELP =
      "Total number of bytes sent in responses by work handler";

  private String[] labels(String endpoint) {
    return new String[] {
      "dynamo_component",
      component(),
      "dynamo_endpoint",
      endpoint,
      "dynamo_namespace",
      NAMESPACE,
      "model",
      pod.info().model()
    };
  }

  /** One family, its generate endpoint at {@code value}, clear_kv_blocks at 0 (never called). */
  private void counter(PromText out, String suffix, String help, String type, long value) {
    out.family(PREFIX + suffix, help, type);
    for (String endpoint : ENDPOINTS) {
      long v = endpoint.equals("generate") ? value : 0;
      out.sample(PREFIX + suffix, labels(endpoint), Long.toString(v));
    }
  }

  private void histogram(PromText out) {
    String name = PREFIX + "request_duration_seconds";
    out.family(name, "Time spent processing requests by work handler", "histogram");
    for (String endpoint : ENDPOINTS) {
      Histogram h = endpoint.equals("generate") ? duration : new Histogram(DEFAULT_BUCKETS);
      String[] l = labels(endpoint);
      for (int i = 0; i <= h.size(); i++) {
        String le = i == h.size() ? "+Inf" : RustFloat.format(h.bound(i));
        String[] withLe = java.util.Arrays.copyOf(l, l.length + 2);
        withLe[l.length] = "le";
        withLe[l.length + 1] = le;
        out.sample(name + "_bucket", withLe, Long.toString(h.cumulative(i)));
      }
      out.sample(name + "_sum", l, RustFloat.format(h.sum()));
      out.sample(name + "_count", l, Long.toString(h.count()));
    }
  }

  /**
   * get_prometheus_expfmt's filter: the lines (HELP, TYPE or sample) whose name starts with one of
   * the prefixes, blank lines dropped, joined with newlines and ended by one.
   */
  private void appendEngine(StringBuilder page, String enginePage) {
    for (String line : enginePage.split("\n", -1)) {
      if (line.isBlank()) {
        continue;
      }
      String name = line;
      if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
        name = line.substring(7);
      }
      for (String p : enginePrefixes) {
        if (name.startsWith(p)) {
          page.append(line).append('\n');
          break;
        }
      }
    }
  }
}
