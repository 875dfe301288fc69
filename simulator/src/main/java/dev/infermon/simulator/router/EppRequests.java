package dev.infermon.simulator.router;

import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.text.GoFloat;
import dev.infermon.simulator.text.Histogram;
import dev.infermon.simulator.text.PromText;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What llm-d's EPP times per request (llm-d/llm-d-router pkg/epp/handlers/response.go @ ebab6879):
 * at the end of a response's stream, {@code RecordRequestLatencies} observes the time from the
 * request's arrival at the EPP to its last response byte in {@code
 * llm_d_epp_request_duration_seconds} and its deprecated twin {@code
 * inference_objective_request_duration_seconds}, and {@code RecordRequestTTFT} the time to its
 * first response byte in {@code llm_d_epp_request_ttft_seconds} (no twin at that commit), labelled
 * {@code streaming}. The simulated clients of the gateway stream (streaming {@code true}), so the
 * first byte is the engine's first token; a request the engine refused has no token and its one
 * answer is its first byte. A request whose client went away never reaches the end of its stream
 * and is not timed. The gateway's own time per request is 2 ms, as for production-stack's router (a
 * simulation choice). Buckets: metrics.go {@code generalLatencyBuckets} and
 * llm_d_router_metrics.go's TTFT bounds. Not thread-safe.
 */
final class EppRequests {
  /** metrics.go generalLatencyBuckets, seconds. */
  static final double[] LATENCY_BUCKETS = {
    0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30,
    45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600
  };

  /** llm_d_router_metrics.go's bounds of llm_d_epp_request_ttft_seconds, seconds. */
  static final double[] TTFT_BUCKETS = {
    0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30,
    45, 60, 120
  };

  private static final double OVERHEAD_SECONDS = ProductionStackRequests.OVERHEAD_SECONDS;
  private final Map<String, Histogram> latency = new TreeMap<>();
  private final Map<String, Histogram> ttft = new TreeMap<>();
  private final Map<String, Deque<double[]>> recent = new TreeMap<>();

  /** Request {@code r} for {@code model} left its engine at {@code now}. */
  void finished(String model, Request r, FinishReason reason, double now) {
    if (reason == FinishReason.ABORT) {
      return;
    }
    double seconds = now - r.arrival();
    double first = (Double.isNaN(r.firstTokenAt()) ? now : r.firstTokenAt()) - r.arrival();
    observe(model, seconds, first, now);
  }

  /**
   * A request of {@code model} whose stream ended at {@code now}: {@code seconds} from its arrival
   * to its last byte, {@code first} to its first, both as the engines took them (the gateway's own
   * time is added here).
   */
  void observe(String model, double seconds, double first, double now) {
    seconds += OVERHEAD_SECONDS;
    first += OVERHEAD_SECONDS;
    latency.computeIfAbsent(model, m -> new Histogram(LATENCY_BUCKETS)).observe(seconds);
    ttft.computeIfAbsent(model, m -> new Histogram(TTFT_BUCKETS)).observe(first);
    Deque<double[]> d = recent.computeIfAbsent(model, m -> new ArrayDeque<>());
    d.addLast(new double[] {now, seconds, first});
    while (d.peekFirst()[0] < now - ProductionStackRequests.REMEMBER_SECONDS) {
      d.removeFirst();
    }
  }

  /**
   * The ground truth of the histograms: per request of {@code model} timed in {@code (from, to]}
   * (epoch seconds, at most 15 minutes back), its duration ({@code ttft} false) or TTFT.
   */
  List<Double> timed(String model, double from, double to, boolean ttftWanted) {
    List<Double> out = new ArrayList<>();
    for (double[] d : recent.getOrDefault(model, new ArrayDeque<>())) {
      if (d[0] > from && d[0] <= to) {
        out.add(ttftWanted ? d[2] : d[1]);
      }
    }
    return out;
  }

  /** The deprecated twin, {@code inference_objective_request_duration_seconds}. */
  void writeObjectiveDuration(PromText out) {
    histogram(
        out,
        "inference_objective_request_duration_seconds",
        "[ALPHA] [Deprecated: Use llm_d_epp_request_duration_seconds] Inference objective response"
            + " latency distribution in seconds for each model and target model.",
        latency,
        false,
        null);
  }

  /** {@code llm_d_epp_request_duration_seconds}. */
  void writeDuration(PromText out) {
    histogram(
        out,
        "llm_d_epp_request_duration_seconds",
        "[ALPHA] End-to-end request latency distribution in seconds.",
        latency,
        true,
        null);
  }

  /** {@code llm_d_epp_request_ttft_seconds}. */
  void writeTtft(PromText out) {
    histogram(
        out,
        "llm_d_epp_request_ttft_seconds",
        "[ALPHA] Time to first token in seconds, measured from request received to first response"
            + " byte. For non-streaming requests, this equals total request duration.",
        ttft,
        true,
        "true");
  }

  /**
   * A client_golang histogram: labels sorted by name, {@code le} among them, buckets then {@code
   * _sum} then {@code _count}, values as Go formats them; absent until its first observation (a
   * HistogramVec without children writes nothing).
   */
  private static void histogram(
      PromText out,
      String name,
      String help,
      Map<String, Histogram> byModel,
      boolean llmd,
      String streaming) {
    if (byModel.isEmpty()) {
      return;
    }
    out.family(name, help, "histogram");
    byModel.forEach(
        (model, h) -> {
          List<String> base = new ArrayList<>();
          if (llmd) {
            base.addAll(List.of("fairness_id", ""));
          }
          base.addAll(List.of("model_name", model));
          if (llmd) {
            base.addAll(List.of("priority", ""));
          }
          if (streaming != null) {
            base.addAll(List.of("streaming", streaming));
          }
          base.addAll(List.of("target_model_name", model));
          for (int i = 0; i <= h.size(); i++) {
            // sorted, "le" falls after fairness_id and before model_name
            List<String> withLe = new ArrayList<>(base);
            withLe.add(llmd ? 2 : 0, "le");
            withLe.add(llmd ? 3 : 1, i == h.size() ? "+Inf" : GoFloat.format(h.bound(i)));
            out.sample(
                name + "_bucket", withLe.toArray(new String[0]), Long.toString(h.cumulative(i)));
          }
          String[] labels = base.toArray(new String[0]);
          out.sample(name + "_sum", labels, GoFloat.format(h.sum()));
          out.sample(name + "_count", labels, Long.toString(h.count()));
        });
  }
}
