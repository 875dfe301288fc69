package dev.infermon.promql.differential;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The differential test's data: a seeded fleet of vLLM pods scraped every 15 s for 150 minutes.
 * Four pods serve two models; each exposes request counters by finish reason, token counters, the
 * running/waiting/KV-cache gauges, a classic TTFT histogram, a ratio gauge that is NaN (0/0) or
 * +Inf (n/0) at times, and {@code up}.
 *
 * <p>Scenarios: pod 1 restarts at minute 75 (every counter resets); pod 2 is unreachable from
 * minute 50 to 60 (no samples, {@code up} 0); pod 3 disappears at minute 120 (staleness markers,
 * then nothing); pod 0's waiting gauge goes stale at minute 112.5 and comes back at minute 117.5.
 *
 * <p>Timing: scrapes sit 3.7 s after a 15 s boundary, so no sample lies on a whole second: window
 * edges of queries evaluated at whole seconds never coincide with a sample, which is where
 * Prometheus 2 (left-closed windows) and 3 (left-open) disagree. The samples before {@link
 * #splitMs()} go to Prometheus as OpenMetrics (backfilled into blocks), the rest by remote write
 * (into its head): OpenMetrics cannot carry a staleness marker, so all of those lie after the
 * split. Timestamps are the ones Prometheus derives from the OpenMetrics text ({@code int64(seconds
 * * 1000)}), so both sides hold the same milliseconds.
 *
 * <p>Immutable after construction.
 */
final class DataSet {
  /** 2024-01-01T00:00:00Z. */
  static final long T0 = 1_704_067_200_000L;

  static final long SCRAPE_MS = 15_000;
  static final long SCRAPE_OFFSET_MS = 3_700;
  static final int SCRAPES = 600; // 150 minutes
  static final int SPLIT_SCRAPE = 400; // minute 100: OpenMetrics before, remote write after

  static final String[] PODS = {"vllm-0", "vllm-1", "vllm-2", "vllm-3"};
  static final String[] MODELS = {"llama-3-8b", "llama-3-8b", "qwen2-7b", "qwen2-7b"};
  static final String[] REASONS = {"stop", "length", "abort"};
  static final String[] LE = {
    "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "+Inf"
  };

  private static final int RESTART_POD = 1;
  private static final int RESTART_SCRAPE = 300;
  private static final int GAP_POD = 2;
  private static final int GAP_FROM = 200;
  private static final int GAP_TO = 240;
  private static final int GONE_POD = 3;
  private static final int GONE_SCRAPE = 480;
  private static final int FLAP_POD = 0;
  private static final int FLAP_FROM = 450;
  private static final int FLAP_TO = 470;

  /** A metric family as OpenMetrics declares it. */
  record Family(String name, String type) {}

  /** One series with its samples in time order. */
  record SeriesData(Family family, Labels labels, long[] t, double[] v) {}

  private final Map<String, Family> families = new LinkedHashMap<>();
  private final List<SeriesData> series = new ArrayList<>();

  private DataSet(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    Family success = family("vllm:request_success", "counter");
    Family prompt = family("vllm:prompt_tokens", "counter");
    Family generation = family("vllm:generation_tokens", "counter");
    Family running = family("vllm:num_requests_running", "gauge");
    Family waiting = family("vllm:num_requests_waiting", "gauge");
    Family kv = family("vllm:kv_cache_usage_perc", "gauge");
    Family ttft = family("vllm:time_to_first_token_seconds", "histogram");
    Family acceptance = family("vllm:spec_decode_draft_acceptance_rate", "gauge");
    Family up = family("up", "gauge");
    for (int p = 0; p < PODS.length; p++) {
      Pod pod = new Pod(p, random.split());
      for (int r = 0; r < REASONS.length; r++) {
        add(success, pod.labels("vllm:request_success_total", "finished_reason", REASONS[r]), pod);
      }
      add(prompt, pod.labels("vllm:prompt_tokens_total"), pod);
      add(generation, pod.labels("vllm:generation_tokens_total"), pod);
      add(running, pod.labels("vllm:num_requests_running"), pod);
      add(waiting, pod.labels("vllm:num_requests_waiting"), pod);
      add(kv, pod.labels("vllm:kv_cache_usage_perc"), pod);
      for (String le : LE) {
        add(ttft, pod.labels("vllm:time_to_first_token_seconds_bucket", "le", le), pod);
      }
      add(ttft, pod.labels("vllm:time_to_first_token_seconds_sum"), pod);
      add(ttft, pod.labels("vllm:time_to_first_token_seconds_count"), pod);
      add(acceptance, pod.labels("vllm:spec_decode_draft_acceptance_rate"), pod);
      add(up, pod.labels("up"), pod);
      pod.simulate(series.subList(series.size() - pod.count, series.size()));
    }
  }

  /** The data set for {@code seed}; equal seeds give equal data. */
  static DataSet generate(long seed) {
    return new DataSet(seed);
  }

  List<SeriesData> series() {
    return Collections.unmodifiableList(series);
  }

  List<Family> families() {
    return List.copyOf(families.values());
  }

  /** Samples before this time go to Prometheus as OpenMetrics, the rest by remote write. */
  static long splitMs() {
    return scrapeTime(SPLIT_SCRAPE);
  }

  /** Time of the last scrape. */
  static long lastScrapeMs() {
    return scrapeTime(SCRAPES - 1);
  }

  /** The OpenMetrics timestamp (seconds, one decimal) of scrape {@code k}. */
  static String openMetricsSeconds(int k) {
    long ms = T0 + SCRAPE_OFFSET_MS + k * SCRAPE_MS;
    return (ms / 1000) + "." + (ms % 1000) / 100;
  }

  /** The millisecond time Prometheus derives from {@link #openMetricsSeconds}: int64(s * 1000). */
  static long scrapeTime(int k) {
    return (long) (Double.parseDouble(openMetricsSeconds(k)) * 1000);
  }

  /** Number of samples, staleness markers included. */
  long sampleCount() {
    long n = 0;
    for (SeriesData s : series) {
      n += s.t().length;
    }
    return n;
  }

  /** Appends every sample (in one transaction) to {@code storage}. */
  void loadInto(Appendable storage) {
    Appender app = storage.appender();
    for (SeriesData s : series) {
      long ref = 0;
      for (int i = 0; i < s.t().length; i++) {
        ref = app.append(ref, s.labels(), s.t()[i], s.v()[i]);
      }
    }
    app.commit();
  }

  private Family family(String name, String type) {
    Family f = new Family(name, type);
    families.put(name, f);
    return f;
  }

  private void add(Family f, Labels labels, Pod pod) {
    series.add(new SeriesData(f, labels, new long[0], new double[0]));
    pod.count++;
  }

  /** Simulates one pod's scrapes. */
  private static final class Pod {
    final int index;
    final SplittableRandom random;
    final double baseRate; // requests per second
    int count;

    Pod(int index, SplittableRandom random) {
      this.index = index;
      this.random = random;
      this.baseRate = 0.3 + random.nextDouble() * 1.2;
    }

    Labels labels(String name, String... extra) {
      Labels.Builder b =
          Labels.builder()
              .set(Labels.METRIC_NAME, name)
              .set("namespace", "llm")
              .set("job", "vllm")
              .set("pod", PODS[index])
              .set("instance", "10.0.0." + (index + 10) + ":8000")
              .set("model_name", MODELS[index]);
      for (int i = 0; i < extra.length; i += 2) {
        b.set(extra[i], extra[i + 1]);
      }
      return b.build();
    }

    /** Fills {@code out} (this pod's series, in the order {@link DataSet} added them). */
    void simulate(List<SeriesData> out) {
      int n = out.size();
      double[] state = new double[n];
      long[][] ts = new long[n][SCRAPES + 1];
      double[][] vs = new double[n][SCRAPES + 1];
      int[] len = new int[n];
      // Counters start mid-life, as when a target is first scraped.
      for (int j = 0; j < n; j++) {
        state[j] = Math.rint(random.nextDouble() * 1000);
      }
      initHistogram(state);
      for (int k = 0; k < SCRAPES; k++) {
        if (index == GAP_POD && k >= GAP_FROM && k < GAP_TO) {
          // Unreachable: only up is recorded, as 0.
          ts[UP][len[UP]] = scrapeTime(k);
          vs[UP][len[UP]++] = 0;
          continue;
        }
        if (index == GONE_POD && k >= GONE_SCRAPE) {
          if (k == GONE_SCRAPE) {
            for (int j = 0; j < n; j++) {
              ts[j][len[j]] = scrapeTime(k);
              vs[j][len[j]++] = StaleNaN.VALUE;
            }
          }
          continue;
        }
        if (index == RESTART_POD && k == RESTART_SCRAPE) {
          Arrays.fill(state, 0);
        }
        step(k, state);
        for (int j = 0; j < n; j++) {
          double v = state[j];
          if (index == FLAP_POD && j == WAITING && k >= FLAP_FROM && k < FLAP_TO) {
            if (k != FLAP_FROM) {
              continue;
            }
            v = StaleNaN.VALUE;
          }
          ts[j][len[j]] = scrapeTime(k);
          vs[j][len[j]++] = v;
        }
      }
      for (int j = 0; j < n; j++) {
        SeriesData s = out.get(j);
        out.set(
            j,
            new SeriesData(
                s.family(),
                s.labels(),
                Arrays.copyOf(ts[j], len[j]),
                Arrays.copyOf(vs[j], len[j])));
      }
    }

    // Indexes into a pod's series, in the order DataSet adds them.
    static final int SUCCESS = 0; // three reasons
    static final int PROMPT = 3;
    static final int GENERATION = 4;
    static final int RUNNING = 5;
    static final int WAITING = 6;
    static final int KV = 7;
    static final int BUCKETS = 8; // LE.length buckets
    static final int SUM = BUCKETS + LE.length;
    static final int COUNT = SUM + 1;
    static final int ACCEPTANCE = COUNT + 1;
    static final int UP = ACCEPTANCE + 1;

    private void initHistogram(double[] state) {
      // Cumulative buckets must stay monotonic: start them from one spread of observations.
      double total = 0;
      for (int b = 0; b < LE.length; b++) {
        total += Math.rint(random.nextDouble() * 50);
        state[BUCKETS + b] = total;
      }
      state[COUNT] = total;
      state[SUM] = Math.rint(total * 0.3 * 1000) / 1000;
    }

    private void step(int k, double[] state) {
      double day = 2 * Math.PI * k / 240.0; // a cycle per hour keeps every window different
      double rate = baseRate * (1 + 0.5 * Math.sin(day + index));
      int requests = (int) Math.max(0, Math.rint(rate * 15 * (0.7 + 0.6 * random.nextDouble())));
      for (int i = 0; i < requests; i++) {
        double u = random.nextDouble();
        state[SUCCESS + (u < 0.8 ? 0 : u < 0.95 ? 1 : 2)]++;
        state[PROMPT] += 200 + random.nextInt(1800);
        state[GENERATION] += 50 + random.nextInt(450);
        // Log-normal TTFT around 150 ms, heavier for the second model.
        double ttft =
            Math.exp(Math.log(0.15 * (index >= 2 ? 1.8 : 1)) + 0.9 * random.nextGaussian());
        ttft = Math.rint(ttft * 10_000) / 10_000;
        state[SUM] = Math.rint((state[SUM] + ttft) * 10_000) / 10_000;
        state[COUNT]++;
        for (int b = 0; b < LE.length; b++) {
          if (b == LE.length - 1 || ttft <= Double.parseDouble(LE[b])) {
            state[BUCKETS + b]++;
          }
        }
      }
      state[RUNNING] = Math.rint(rate * 6 * (0.8 + 0.4 * random.nextDouble()));
      state[WAITING] = random.nextInt(6) == 0 ? random.nextInt(8) : 0;
      state[KV] =
          Math.min(1, Math.rint((0.15 + rate * 0.35 + random.nextGaussian() * 0.05) * 1e4) / 1e4);
      if (state[KV] < 0) {
        state[KV] = 0;
      }
      int drafts = random.nextInt(4) == 0 ? 0 : random.nextInt(40);
      int accepted = drafts == 0 ? random.nextInt(2) : random.nextInt(drafts + 1);
      // 0/0 is NaN and n/0 is +Inf, as a ratio gauge computed without a guard reports them.
      state[ACCEPTANCE] =
          drafts == 0
              ? (accepted == 0 ? Double.NaN : Double.POSITIVE_INFINITY)
              : Math.rint(accepted * 1e4 / drafts) / 1e4;
      state[UP] = 1;
    }
  }
}
