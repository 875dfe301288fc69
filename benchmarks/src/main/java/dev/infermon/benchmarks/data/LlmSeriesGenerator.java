package dev.infermon.benchmarks.data;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A fleet of vLLM pods whose series are those of a real vLLM V1 scrape ({@code
 * vllm-0.11.x-idle.txt}, 379 series per pod), evolving at 15 s: traffic follows a daily cycle per
 * pod; counters grow with it (tokens by hundreds per request, requests by one) and reset when a pod
 * restarts (about once a day); gauges wander or stay put; histogram buckets stay cumulative (a
 * log-normal latency spread over the real bucket bounds) with matching {@code _count} and {@code
 * _sum}.
 *
 * <p>Use: {@code g = LlmSeriesGenerator.vllmFleet(pods, seed)}; {@code g.labels()} lists the series
 * (pod by pod, in capture order); each {@code g.next(values)} fills one value per series for the
 * next scrape and returns its timestamp. Deterministic for a seed. Not thread-safe.
 */
public final class LlmSeriesGenerator {
  /** Scrape interval. */
  public static final long STEP_MS = 15_000;

  /** 2026-01-01T00:00:00Z. */
  public static final long START_MS = 1_767_225_600_000L;

  /** Scrapes in 24 hours. */
  public static final int SCRAPES_PER_DAY = (int) (24 * 3_600_000L / STEP_MS);

  private static final String CAPTURE = "/vllm-0.11.x-idle.txt";
  private static final double RESTART_PROBABILITY = 1.0 / SCRAPES_PER_DAY;

  private final List<TemplateSeries> template;
  private final int pods;
  private final List<Labels> labels;
  private final double[] state;
  private final double[] perRequest; // per template series: counter increment per request
  private final int[] group; // per template series: histogram group, -1 if none
  private final double[] upperBound; // per bucket series: its le
  private final double[] groupMedian;
  private final double[] groupObservationsPerRequest;
  private final double[] podBaseRate;
  private final double[] podCreated;
  private final SplittableRandom random;
  private int scrape;

  private LlmSeriesGenerator(int pods, long seed) {
    if (pods < 1) {
      throw new IllegalArgumentException("need at least one pod, got " + pods);
    }
    this.template = TemplateSeries.load(CAPTURE);
    this.pods = pods;
    this.random = new SplittableRandom(seed);
    int t = template.size();
    perRequest = new double[t];
    group = new int[t];
    upperBound = new double[t];
    Map<String, Integer> groups = new LinkedHashMap<>();
    Map<Integer, List<Double>> bounds = new HashMap<>();
    for (int j = 0; j < t; j++) {
      TemplateSeries s = template.get(j);
      perRequest[j] = perRequest(s.name());
      group[j] = -1;
      if (s.kind() == TemplateSeries.Kind.BUCKET
          || s.kind() == TemplateSeries.Kind.SUM
          || s.kind() == TemplateSeries.Kind.COUNT) {
        Map<String, String> rest = new LinkedHashMap<>(s.labels());
        rest.remove("le");
        String key = baseName(s.name()) + rest;
        group[j] = groups.computeIfAbsent(key, k -> groups.size());
        if (s.kind() == TemplateSeries.Kind.BUCKET) {
          upperBound[j] = Double.parseDouble(s.labels().get("le").replace("+Inf", "Infinity"));
          bounds.computeIfAbsent(group[j], k -> new ArrayList<>()).add(upperBound[j]);
        }
      }
    }
    groupMedian = new double[groups.size()];
    groupObservationsPerRequest = new double[groups.size()];
    groups.forEach(
        (key, g) -> {
          List<Double> b = bounds.getOrDefault(g, List.of(1.0));
          Collections.sort(b);
          // A median a third of the way up the finite bounds: most requests land mid-histogram.
          int finite = Math.max(1, b.size() - 1);
          groupMedian[g] = b.get(Math.min(finite - 1, finite / 3));
          groupObservationsPerRequest[g] =
              key.contains("token_latency") || key.contains("per_output_token") ? 150 : 1;
        });
    podBaseRate = new double[pods];
    podCreated = new double[pods];
    for (int p = 0; p < pods; p++) {
      podBaseRate[p] = 0.2 + random.nextDouble() * 3; // requests per second
      podCreated[p] = START_MS / 1000.0 - random.nextInt(86_400);
    }
    labels = buildLabels();
    state = new double[pods * t];
    for (int p = 0; p < pods; p++) {
      resetPod(p, true);
    }
  }

  /** A fleet of {@code pods} vLLM pods. */
  public static LlmSeriesGenerator vllmFleet(int pods, long seed) {
    return new LlmSeriesGenerator(pods, seed);
  }

  /** Series per pod. */
  public int seriesPerPod() {
    return template.size();
  }

  /** Number of series. */
  public int size() {
    return labels.size();
  }

  public int pods() {
    return pods;
  }

  /** The series' labels, pod by pod; index {@code pod * seriesPerPod() + j}. */
  public List<Labels> labels() {
    return labels;
  }

  /**
   * Advances one scrape and writes every series' value into {@code values} (length {@link
   * #size()}); returns the scrape's timestamp in milliseconds.
   */
  public long next(double[] values) {
    long t = START_MS + scrape * STEP_MS;
    double day = 2 * Math.PI * (scrape * STEP_MS) / 86_400_000.0;
    int n = template.size();
    double[] observed = new double[groupMedian.length];
    for (int p = 0; p < pods; p++) {
      if (scrape > 0 && random.nextDouble() < RESTART_PROBABILITY) {
        resetPod(p, false);
        podCreated[p] = t / 1000.0;
      }
      double rate =
          podBaseRate[p] * (1 + 0.6 * Math.sin(day + p)) * (0.8 + 0.4 * random.nextDouble());
      double requests = Math.max(0, Math.rint(rate * STEP_MS / 1000.0));
      for (int g = 0; g < observed.length; g++) {
        observed[g] = requests * groupObservationsPerRequest[g];
      }
      int base = p * n;
      for (int j = 0; j < n; j++) {
        state[base + j] = evolve(j, state[base + j], requests, rate, observed, p);
        values[base + j] = state[base + j];
      }
    }
    scrape++;
    return t;
  }

  private double evolve(int j, double v, double requests, double rate, double[] observed, int p) {
    TemplateSeries s = template.get(j);
    switch (s.kind()) {
      case COUNTER:
        double inc = perRequest[j] * requests;
        if (perRequest[j] < 1) {
          return v + Math.rint(inc * 100) / 100; // seconds-like counters keep 2 decimals
        }
        return v + Math.rint(inc * (0.7 + 0.6 * random.nextDouble()));
      case GAUGE:
        return gauge(s.name(), v, rate);
      case BUCKET:
        {
          double x = (Math.log(upperBound[j]) - Math.log(groupMedian[group[j]])) / 1.0;
          return v + Math.rint(observed[group[j]] * normalCdf(x));
        }
      case COUNT:
        return v + observed[group[j]];
      case SUM:
        return v
            + Math.rint(
                    observed[group[j]]
                        * groupMedian[group[j]]
                        * 1.65
                        * 1e4
                        * (0.9 + 0.2 * random.nextDouble()))
                / 1e4;
      case CREATED:
        return podCreated[p];
      default:
        return v;
    }
  }

  private double gauge(String name, double v, double rate) {
    if (name.contains("num_requests_running")) {
      return Math.rint(rate * 4 * (0.8 + 0.4 * random.nextDouble()));
    }
    if (name.contains("num_requests_waiting")) {
      return random.nextInt(20) == 0 ? random.nextInt(5) : 0;
    }
    if (name.contains("perc")) {
      return Math.min(
          1, Math.max(0, Math.rint((rate * 0.1 + random.nextGaussian() * 0.02) * 1e4) / 1e4));
    }
    if (random.nextInt(10) < 7) {
      return v; // most gauges stay put between scrapes
    }
    double step = Math.max(1, Math.abs(v) * 0.01);
    return Math.max(0, Math.rint(v + random.nextGaussian() * step));
  }

  private void resetPod(int p, boolean initial) {
    int n = template.size();
    for (int j = 0; j < n; j++) {
      TemplateSeries s = template.get(j);
      double v;
      switch (s.kind()) {
        case COUNTER:
        case BUCKET:
        case SUM:
        case COUNT:
          v = initial ? s.value() : 0;
          break;
        case CREATED:
          v = podCreated[p];
          break;
        default:
          v = s.value();
      }
      state[p * n + j] = v;
    }
  }

  private List<Labels> buildLabels() {
    List<Labels> out = new ArrayList<>(pods * template.size());
    for (int p = 0; p < pods; p++) {
      String pod = String.format("vllm-%03d-%05x", p / 8, (p * 2654435761L) & 0xfffff);
      String instance = "10.0." + (p / 250) + "." + (p % 250) + ":8000";
      for (TemplateSeries s : template) {
        Labels.Builder b = Labels.builder();
        s.labels().forEach(b::set);
        b.set(Labels.METRIC_NAME, s.name())
            .set("namespace", "llm")
            .set("pod", pod)
            .set("workload_name", "vllm-" + (p / 8))
            .set("backend", "vllm")
            .set("instance", instance)
            .set("job", "vllm");
        out.add(b.build());
      }
    }
    return Collections.unmodifiableList(out);
  }

  private static double perRequest(String name) {
    if (name.contains("prompt_tokens")) {
      return 600;
    }
    if (name.contains("generation_tokens") || name.contains("prefix_cache")) {
      return 250;
    }
    if (name.contains("preemption")) {
      return 0.02;
    }
    if (name.startsWith("python_gc") || name.startsWith("process_cpu")) {
      return 0.5;
    }
    return 1;
  }

  private static String baseName(String name) {
    for (String suffix : new String[] {"_bucket", "_sum", "_count"}) {
      if (name.endsWith(suffix)) {
        return name.substring(0, name.length() - suffix.length());
      }
    }
    return name;
  }

  /** Abramowitz-Stegun 7.1.26; enough for spreading observations over buckets. */
  private static double normalCdf(double x) {
    if (Double.isInfinite(x)) {
      return x > 0 ? 1 : 0;
    }
    double t = 1 / (1 + 0.3275911 * Math.abs(x) / Math.sqrt(2));
    double y =
        1
            - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
                    + 0.254829592)
                * t
                * Math.exp(-x * x / 2);
    return x >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
  }
}
