package dev.infermon.llm;

import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.vllm.VllmMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The simulator's own counts per vLLM pod at every scrape of a {@link SimulatedFleet} run: what
 * {@code read} takes from each engine's {@link VllmMetrics}, summed over the pod's engines; and
 * their gain over the window a 5-minute {@code rate} at the end sees.
 */
final class VllmTruth {
  private final SimulatedFleet fleet;
  private final Map<Long, Map<String, double[]>> byTime = new HashMap<>();

  /** Runs {@code fleet} for {@code d}, recording {@code read} after every step. */
  VllmTruth(SimulatedFleet fleet, Duration d, Function<VllmMetrics, double[]> read) {
    this.fleet = fleet;
    fleet.run(
        d,
        snap -> {
          Map<String, double[]> at = new HashMap<>();
          for (InferencePod p : fleet.fleet.pods()) {
            if (p instanceof VllmPod) {
              double[] sum = null;
              for (int i = 0; i < p.engines().size(); i++) {
                double[] v = read.apply(((VllmPod) p).metrics(i));
                sum = sum == null ? new double[v.length] : sum;
                for (int k = 0; k < v.length; k++) {
                  sum[k] += v[k];
                }
              }
              at.put(p.info().name(), sum);
            }
          }
          byTime.put(snap.timeMillis(), at);
        });
  }

  /** The vLLM pods at the end. */
  java.util.Set<String> pods() {
    return byTime.get(fleet.now()).keySet();
  }

  /** {@code pod}'s counts at the end. */
  double[] at(String pod) {
    return byTime.get(fleet.now()).get(pod);
  }

  /**
   * What {@code pod}'s counts gained over the samples PromQL's {@code rate(x[5m])} reads at the
   * end: those in (now-5m, now], the first at now-285s.
   */
  double[] delta(String pod) {
    double[] end = byTime.get(fleet.now()).get(pod);
    double[] start = byTime.get(fleet.now() - 285_000).get(pod);
    double[] d = new double[end.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = end[i] - start[i];
    }
    return d;
  }

  /** The gain of every vLLM pod together ({@link #delta} summed over pods). */
  double[] total() {
    double[] sum = null;
    for (String pod : pods()) {
      double[] d = delta(pod);
      sum = sum == null ? new double[d.length] : sum;
      for (int i = 0; i < d.length; i++) {
        sum[i] += d[i];
      }
    }
    return sum;
  }
}
