package dev.infermon.remote.it;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Storage;

/**
 * A deterministic slice of an LLM fleet, written one "scrape" (commit) per step: 12 vLLM pods of
 * two models in namespace {@code llm}, with gauges, counters and a TTFT histogram. Model {@code m1}
 * is in trouble (slow first tokens, a long queue while preempting) so the default alerts fire for
 * it and not for {@code m0}.
 */
final class FleetSamples {
  static final int PODS = 12;
  static final long STEP_MS = 15_000;
  static final double[] TTFT_LE = {0.5, 1, 2.5, 5, Double.POSITIVE_INFINITY};
  // Cumulative observations per step at each bound: m0 is fast, m1's p95 lies in (2.5, 5].
  private static final int[] FAST = {10, 10, 10, 10, 10};
  private static final int[] SLOW = {1, 2, 3, 8, 10};

  private FleetSamples() {}

  /** Appends {@code steps} scrapes starting at {@code startMs}; returns the samples written. */
  static long write(Storage storage, long startMs, int steps) {
    long n = 0;
    for (int step = 0; step < steps; step++) {
      long t = startMs + step * STEP_MS;
      Appender a = storage.appender();
      for (int pod = 0; pod < PODS; pod++) {
        n += scrape(a, pod, step, t);
      }
      a.commit();
    }
    return n;
  }

  private static int scrape(Appender a, int pod, int step, long t) {
    boolean slow = pod % 2 == 1;
    String model = slow ? "m1" : "m0";
    String podName = String.format("vllm-%02d", pod);
    int n = 0;
    a.append(series("up", podName, model), t, 1);
    a.append(series("vllm:num_requests_running", podName, model), t, (pod * 3 + step) % 7);
    a.append(
        series("vllm:num_requests_waiting", podName, model), t, slow ? 20 + step % 3 : step % 2);
    a.append(series("vllm:kv_cache_usage_perc", podName, model), t, ((pod + step) % 10) / 10.0);
    a.append(series("vllm:num_preemptions_total", podName, model), t, slow ? 2.0 * step : 0);
    n += 5;
    for (String reason : new String[] {"stop", "length"}) {
      Labels l =
          base("vllm:request_success_total", podName, model).set("finished_reason", reason).build();
      a.append(l, t, (reason.equals("stop") ? 9.0 : 1.0) * step * (pod + 1));
      n++;
    }
    int[] per = slow ? SLOW : FAST;
    for (int i = 0; i < TTFT_LE.length; i++) {
      Labels l =
          base("vllm:time_to_first_token_seconds_bucket", podName, model)
              .set(
                  "le",
                  TTFT_LE[i] == Double.POSITIVE_INFINITY ? "+Inf" : Double.toString(TTFT_LE[i]))
              .build();
      a.append(l, t, (double) per[i] * step);
      n++;
    }
    return n;
  }

  private static Labels series(String name, String pod, String model) {
    return base(name, pod, model).build();
  }

  private static Labels.Builder base(String name, String pod, String model) {
    return Labels.builder()
        .set("__name__", name)
        .set("namespace", "llm")
        .set("pod", pod)
        .set("model_name", model)
        .set("job", "vllm")
        .set("instance", pod + ":8000");
  }
}
