package dev.infermon.simulator.router;

import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.PromText;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * llm-d's endpoint picker (EPP) {@code /metrics} in front of the pods of an InferencePool, with
 * llm-d-router's dual emission: each current {@code llm_d_epp_*} series beside its deprecated twin,
 * as llm-d/llm-d-router pkg/epp/metrics @ ebab6879 writes them (names, help texts and label names
 * from metrics.go and llm_d_router_metrics.go; client_golang's text format: labels sorted, counters
 * without {@code _created}). Every request a pod was sent is one successful scheduling attempt with
 * that pod as the endpoint ({@code endpoint_name}, twin {@code pod_name}); the per-endpoint queue
 * is the engine's waiting queue as the EPP reads it. The requests it routed are timed as
 * response.go does ({@link EppRequests}: the duration and TTFT histograms, families sorted by name
 * as client_golang gathers them). In front of a prefill/decode pair, a request is one attempt on
 * the decode pod, the P/D profile handler's primary profile (metrics.go RecordSchedulerAttempt
 * names that profile's endpoint), both pods' queues are read, and the request is timed once as the
 * user saw it ({@link PdPairs}): the histograms carry no pod or P/D label, so a model's P/D and
 * other requests share one series. Each P/D request is also one disaggregation decision, as the
 * disagg-profile-handler of deploy/config/pd-epp-config.yaml records it once every stage has run
 * (disagg_profile_handler.go line 418-420, profilehandler/disagg/metrics.go line 126-134): {@code
 * llm_d_epp_disagg_decision_total{decision_type, model_name, plugin_name, plugin_type}} and its
 * twin {@code llm_d_inference_scheduler_disagg_decision_total{decision_type, model_name}}, {@code
 * decision_type="prefill-decode"} since every simulated P/D request runs its prefill side. {@code
 * llm_d_epp_pd_decision_total} is only the deprecated pd-profile-handler's (pd_profile_handler.go
 * line 220, 231), which the sample configs no longer use, so the page has none. The counters
 * outlive a pod's restart. Not thread-safe.
 */
public final class LlmdEpp {
  private static final String POOL = "inference-pool";
  private final Map<String, Long> scheduled = new TreeMap<>();
  private final Map<String, Long> lastSent = new HashMap<>();
  private final Map<String, Long> perModel = new TreeMap<>();
  private final EppRequests requests = new EppRequests();
  private final Map<String, PdPairs> pairs = new TreeMap<>();
  private final Map<String, Long> pdDecisions = new TreeMap<>();

  /**
   * The handler's name and type: a plugin configured without a name is named by its type
   * (deploy/config/pd-epp-config.yaml lists {@code - type: disagg-profile-handler}).
   */
  static final String DISAGG_HANDLER = "disagg-profile-handler";

  /** Request {@code r} for {@code model}, which the EPP routed, left its engine at {@code now}. */
  public void finished(String model, Request r, FinishReason reason, double now) {
    requests.finished(model, r, reason, now);
  }

  /**
   * Request {@code r} of a prefill/decode pair serving {@code model} left the pair's {@code
   * prefill} (else decode) side at {@code now}: once both sides have finished it, the EPP times it
   * as the user saw it through the decode pod's sidecar ({@link PdPairs}). {@code pair} names the
   * pair (its workload).
   */
  public void pdFinished(
      String pair, String model, boolean prefill, Request r, FinishReason reason, double now) {
    PdPairs.Timed t =
        pairs.computeIfAbsent(pair, k -> new PdPairs()).finished(prefill, r, reason, now);
    if (t != null) {
      requests.observe(model, t.duration(), t.ttft(), now);
    }
  }

  /**
   * The ground truth of the duration ({@code ttft} false) or TTFT histogram: what the EPP timed for
   * {@code model}'s requests that finished in {@code (from, to]} (epoch seconds, at most 15 minutes
   * back).
   */
  public List<Double> timed(String model, double from, double to, boolean ttft) {
    return requests.timed(model, from, to, ttft);
  }

  /** Requests {@code pod} was sent since it started: finished plus in flight. */
  public static long sent(InferencePod pod) {
    long n = 0;
    for (EngineModel e : pod.engines()) {
      EngineState s = e.state();
      n += e.finishedCount() + s.running() + s.waiting() + s.transferring();
    }
    return n;
  }

  /** The page at {@code now} (epoch seconds) for the pods of the pool. */
  public String render(List<InferencePod> pods, double now) {
    Map<String, int[]> queues = new TreeMap<>();
    Map<String, String[]> ids = new TreeMap<>();
    for (InferencePod pod : pods) {
      String name = pod.info().name();
      ids.put(name, new String[] {pod.info().namespace(), pod.info().model()});
      if (!pod.up(now)) {
        continue; // the EPP drops an endpoint that fails its probes from the pool
      }
      if (pod.info().role().equals("prefill")) {
        // a P/D request's one scheduling attempt names the decode pod, the primary profile's
        // endpoint (metrics.go RecordSchedulerAttempt); the prefill pod's queue is still read
        queues.put(name, new int[] {waiting(pod)});
        continue;
      }
      long sent = sent(pod);
      String incarnation = name + "#" + pod.restarts();
      long gained = sent - lastSent.getOrDefault(incarnation, 0L);
      lastSent.put(incarnation, sent);
      scheduled.merge(name, gained, Long::sum);
      perModel.merge(pod.info().model(), gained, Long::sum);
      if (pod.info().role().equals("decode")) {
        pdDecisions.merge(pod.info().model(), gained, Long::sum);
      }
      queues.put(name, new int[] {waiting(pod)});
    }
    PromText out = new PromText(4096);
    attempts(
        out,
        "inference_extension_scheduler_attempts_total",
        "pod_name",
        ids,
        "[ALPHA] [Deprecated: Use llm_d_epp_scheduler_attempts_total] Total number of scheduling attempts.");
    requests.writeObjectiveDuration(out);
    out.family(
        "inference_objective_request_total",
        "[ALPHA] [Deprecated: Use llm_d_epp_request_total] Counter of inference objective requests broken"
            + " out for each model and target model.",
        "counter");
    perModel.forEach(
        (m, n) ->
            out.sample(
                "inference_objective_request_total",
                new String[] {"model_name", m, "priority", "", "target_model_name", m},
                Long.toString(n)));
    queue(
        out,
        "inference_pool_per_pod_queue_size",
        "model_server_pod",
        queues,
        "[ALPHA] The total number of requests pending in the model server queue for each underlying pod.");
    // client_golang gathers families sorted by name
    disaggDecisions(
        out,
        "llm_d_epp_disagg_decision_total",
        "[ALPHA] Total number of disaggregation routing decisions made",
        true);
    queue(
        out,
        "llm_d_epp_per_endpoint_queue_size",
        "model_server_endpoint",
        queues,
        "[ALPHA] The total number of requests pending in the model server queue for each underlying"
            + " endpoint.");
    requests.writeDuration(out);
    out.family("llm_d_epp_request_total", "[ALPHA] Total number of processed requests.", "counter");
    perModel.forEach(
        (m, n) ->
            out.sample(
                "llm_d_epp_request_total",
                new String[] {
                  "fairness_id", "", "model_name", m, "priority", "", "target_model_name", m
                },
                Long.toString(n)));
    requests.writeTtft(out);
    attempts(
        out,
        "llm_d_epp_scheduler_attempts_total",
        "endpoint_name",
        ids,
        "[ALPHA] Total number of scheduling attempts.");
    disaggDecisions(
        out,
        "llm_d_inference_scheduler_disagg_decision_total",
        "[ALPHA] [Deprecated: Use llm_d_epp_disagg_decision_total] Total number of disaggregation"
            + " routing decisions made",
        false);
    return out.toString();
  }

  /**
   * The P/D decisions by model, in the current family ({@code plugin} labels) or its twin;
   * client_golang writes a vector with no child not at all.
   */
  private void disaggDecisions(PromText out, String family, String help, boolean plugin) {
    if (pdDecisions.isEmpty()) {
      return;
    }
    out.family(family, help, "counter");
    pdDecisions.forEach(
        (m, n) ->
            out.sample(
                family,
                plugin
                    ? new String[] {
                      "decision_type",
                      "prefill-decode",
                      "model_name",
                      m,
                      "plugin_name",
                      DISAGG_HANDLER,
                      "plugin_type",
                      DISAGG_HANDLER
                    }
                    : new String[] {"decision_type", "prefill-decode", "model_name", m},
                Long.toString(n)));
  }

  /** The P/D requests the EPP decided to disaggregate, by model (a test's truth). */
  public Map<String, Long> pdDecisions() {
    return Map.copyOf(pdDecisions);
  }

  private static int waiting(InferencePod pod) {
    int waiting = 0;
    for (EngineModel e : pod.engines()) {
      waiting += e.state().waiting();
    }
    return waiting;
  }

  private void attempts(
      PromText out, String family, String endpoint, Map<String, String[]> ids, String help) {
    out.family(family, help, "counter");
    scheduled.forEach(
        (pod, n) ->
            out.sample(
                family,
                sorted(
                    endpoint,
                    pod,
                    "namespace",
                    ids.get(pod)[0],
                    "port",
                    "8000",
                    "status",
                    "success",
                    "target_model_name",
                    ids.get(pod)[1]),
                Long.toString(n)));
  }

  /** client_golang writes a series' labels sorted by name. */
  private static String[] sorted(String... pairs) {
    TreeMap<String, String> m = new TreeMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    String[] out = new String[pairs.length];
    int i = 0;
    for (Map.Entry<String, String> e : m.entrySet()) {
      out[i++] = e.getKey();
      out[i++] = e.getValue();
    }
    return out;
  }

  private static void queue(
      PromText out, String family, String endpoint, Map<String, int[]> queues, String help) {
    out.family(family, help, "gauge");
    queues.forEach(
        (pod, q) ->
            out.sample(family, new String[] {endpoint, pod, "name", POOL}, Integer.toString(q[0])));
  }
}
