package dev.infermon.storage.testing;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The fixed data set {@link QuerierConformance} reads: 40 series shaped like an LLM server's
 * (counters, gauges, histogram buckets; a label missing on some series) with 1 to 700 samples each,
 * 15 s apart with jitter, including staleness markers, ordinary NaN and infinities. Times start at
 * {@link #START}; "early" series end before {@link #MIDDLE}, "late" series start after it.
 * Deterministic: the same every run.
 */
public final class ConformanceData {
  /** First sample time of the data set, in milliseconds. */
  public static final long START = 1_700_000_000_000L;

  /** No "early" series has data at or after this time; no "late" series before it. */
  public static final long MIDDLE = START + 3 * 3_600_000L;

  /** Latest sample time of the data set is below this. */
  public static final long END = START + 6 * 3_600_000L;

  private static final SortedMap<Labels, List<Sample>> DATA = build();

  private ConformanceData() {}

  /** The data set, sorted by labels; unmodifiable. */
  public static SortedMap<Labels, List<Sample>> dataSet() {
    return DATA;
  }

  private static SortedMap<Labels, List<Sample>> build() {
    Random r = new Random(42);
    TreeMap<Labels, List<Sample>> out = new TreeMap<>();
    String[] pods = {"a", "b", "c"};
    for (int p = 0; p < pods.length; p++) {
      String pod = pods[p];
      out.put(
          Labels.of("__name__", "vllm:num_requests_running", "pod", pod, "model_name", "llama"),
          series(r, START, 15_000, 700, Shape.GAUGE));
      out.put(
          Labels.of("__name__", "vllm:prompt_tokens_total", "pod", pod, "model_name", "llama"),
          series(r, START + 1_000, 15_000, 650, Shape.COUNTER));
      for (String le : new String[] {"0.1", "0.5", "1", "+Inf"}) {
        out.put(
            Labels.of(
                "__name__",
                "vllm:time_to_first_token_seconds_bucket",
                "pod",
                pod,
                "model_name",
                "llama",
                "le",
                le),
            series(r, START + 2_000, 15_000, 400 + 50 * p, Shape.COUNTER));
      }
      // No model_name label: selects by "model_name is empty".
      out.put(
          Labels.of("__name__", "up", "pod", pod, "job", "vllm"),
          series(r, START, 15_000, 1_300, Shape.UP));
      out.put(
          Labels.of("__name__", "early_gauge", "pod", pod),
          series(r, START, 10_000, 1_000, Shape.GAUGE));
      out.put(
          Labels.of("__name__", "late_gauge", "pod", pod, "zone", "z" + p),
          series(r, MIDDLE + 60_000, 30_000, 300, Shape.GAUGE));
    }
    out.put(Labels.of("__name__", "single_sample", "pod", "a"), List.of(Sample.of(MIDDLE - 1, 7)));
    out.put(Labels.of("__name__", "special_values"), specials());
    out.put(Labels.of("job", "no_name", "pod", "b"), series(r, START, 60_000, 100, Shape.GAUGE));
    out.forEach(
        (labels, samples) -> {
          long last = samples.get(samples.size() - 1).t();
          if (last >= END || (labels.metricName().startsWith("early") && last >= MIDDLE)) {
            throw new IllegalStateException("data set breaks its own promise at " + labels);
          }
        });
    return Collections.unmodifiableSortedMap(out);
  }

  private enum Shape {
    COUNTER,
    GAUGE,
    UP
  }

  private static List<Sample> series(Random r, long start, long step, int n, Shape shape) {
    List<Sample> s = new ArrayList<>(n);
    long t = start;
    double v = shape == Shape.UP ? 1 : r.nextInt(100);
    for (int i = 0; i < n; i++) {
      switch (shape) {
        case COUNTER:
          v = (r.nextInt(200) == 0) ? r.nextInt(5) : v + r.nextInt(1000); // rare resets
          break;
        case GAUGE:
          v = Math.max(0, v + r.nextGaussian() * 3);
          break;
        default:
          v = r.nextInt(50) == 0 ? 0 : 1;
      }
      // A stale marker now and then (a target that vanished and came back).
      double value = (shape != Shape.UP && r.nextInt(97) == 0) ? StaleNaN.VALUE : v;
      s.add(Sample.of(t, value));
      t += step + r.nextInt(41) - 20;
      if (r.nextInt(300) == 0) {
        t += 10 * step; // a scrape gap
      }
    }
    return List.copyOf(s);
  }

  private static List<Sample> specials() {
    double[] vs = {
      0,
      Double.NaN,
      StaleNaN.VALUE,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      -0.0,
      Double.MIN_VALUE,
      Double.MAX_VALUE,
      1e-300,
      Double.NaN,
      42
    };
    List<Sample> s = new ArrayList<>();
    for (int i = 0; i < vs.length; i++) {
      s.add(Sample.of(START + 5_000L * i, vs[i]));
    }
    return List.copyOf(s);
  }
}
