package dev.infermon.simulator.router;

import dev.infermon.simulator.text.Histogram;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One of the gateway's histograms per model (start_prometheus's duration buckets), with the
 * observations of the last {@link SmgRouter#REMEMBER_SECONDS} kept as the ground truth tests
 * compare the page with. Not thread-safe.
 */
final class SmgTimings {
  private final Map<String, Histogram> byModel = new TreeMap<>();
  private final Map<String, Deque<double[]>> recent = new HashMap<>();

  /** {@code model}'s observation of {@code seconds}, made at {@code now} (epoch seconds). */
  void observe(String model, double seconds, double now) {
    byModel.computeIfAbsent(model, m -> new Histogram(SmgRouter.DURATION_BUCKETS)).observe(seconds);
    Deque<double[]> r = recent.computeIfAbsent(model, m -> new ArrayDeque<>());
    r.addLast(new double[] {now, seconds});
    while (r.peekFirst()[0] < now - SmgRouter.REMEMBER_SECONDS) {
      r.removeFirst();
    }
  }

  /** The observations of {@code model} made in {@code (from, to]}. */
  List<Double> between(String model, double from, double to) {
    List<Double> out = new ArrayList<>();
    for (double[] d : recent.getOrDefault(model, new ArrayDeque<>())) {
      if (d[0] > from && d[0] <= to) {
        out.add(d[1]);
      }
    }
    return out;
  }

  /** The histograms by model; a model has one from its first observation on. */
  Map<String, Histogram> histograms() {
    return byModel;
  }
}
