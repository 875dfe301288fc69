package dev.infermon.benchmarks.promql;

import dev.infermon.benchmarks.data.LlmSeriesGenerator;
import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The benchmark's data: a vLLM fleet from {@link LlmSeriesGenerator} (real vLLM 0.11 series at 15
 * s, daily traffic cycle, restarts), reduced to the families the dashboard reads plus the e2e
 * latency histogram, with four models spread over the workloads. Materialized once (series by
 * scrape) so that both sides get identical samples. Immutable after construction.
 */
final class FleetData {
  /** The families kept, by sample name. */
  static final Set<String> NAMES =
      Set.of(
          "vllm:time_to_first_token_seconds_bucket",
          "vllm:time_to_first_token_seconds_sum",
          "vllm:time_to_first_token_seconds_count",
          "vllm:e2e_request_latency_seconds_bucket",
          "vllm:e2e_request_latency_seconds_sum",
          "vllm:e2e_request_latency_seconds_count",
          "vllm:request_success_total",
          "vllm:prompt_tokens_total",
          "vllm:generation_tokens_total",
          "vllm:num_requests_running",
          "vllm:num_requests_waiting",
          "vllm:kv_cache_usage_perc");

  static final String[] MODELS = {
    "Qwen/Qwen3-8B",
    "meta-llama/Llama-3.1-8B-Instruct",
    "mistralai/Mistral-7B-Instruct-v0.3",
    "Qwen/Qwen2.5-72B-Instruct"
  };

  final int pods;
  final int scrapes;
  final List<Labels> labels = new ArrayList<>();
  final List<String> types = new ArrayList<>(); // OpenMetrics family type per series
  final double[][] values; // [series][scrape]

  FleetData(int pods, double hours, long seed) {
    this.pods = pods;
    this.scrapes = (int) Math.round(hours * 3_600_000 / LlmSeriesGenerator.STEP_MS);
    LlmSeriesGenerator gen = LlmSeriesGenerator.vllmFleet(pods, seed);
    List<Integer> keep = new ArrayList<>();
    for (int i = 0; i < gen.size(); i++) {
      Labels l = gen.labels().get(i);
      if (NAMES.contains(l.metricName())) {
        keep.add(i);
        int pod = i / gen.seriesPerPod();
        labels.add(l.toBuilder().set("model_name", MODELS[(pod / 8) % MODELS.length]).build());
        types.add(type(l.metricName()));
      }
    }
    values = new double[keep.size()][scrapes];
    double[] all = new double[gen.size()];
    for (int s = 0; s < scrapes; s++) {
      gen.next(all);
      for (int j = 0; j < keep.size(); j++) {
        values[j][s] = all[keep.get(j)];
      }
    }
  }

  static long time(int scrape) {
    return LlmSeriesGenerator.START_MS + scrape * LlmSeriesGenerator.STEP_MS;
  }

  long startMs() {
    return time(0);
  }

  long lastMs() {
    return time(scrapes - 1);
  }

  int series() {
    return labels.size();
  }

  long samples() {
    return (long) series() * scrapes;
  }

  /** Appends every sample as scrape loops do: one transaction per pod and scrape. */
  void loadInto(Appendable storage) {
    long[] refs = new long[series()];
    int perPod = series() / pods;
    for (int s = 0; s < scrapes; s++) {
      long t = time(s);
      for (int p = 0; p < pods; p++) {
        Appender app = storage.appender();
        for (int j = p * perPod; j < (p + 1) * perPod; j++) {
          refs[j] = app.append(refs[j], labels.get(j), t, values[j][s]);
        }
        app.commit();
      }
    }
  }

  /**
   * Writes OpenMetrics for {@code promtool tsdb create-blocks-from openmetrics}: families together,
   * each series' samples in time order, timestamps in whole seconds (exact in a float).
   */
  void writeOpenMetrics(Writer out) throws IOException {
    Map<String, List<Integer>> families = new LinkedHashMap<>();
    for (int j = 0; j < series(); j++) {
      families.computeIfAbsent(family(labels.get(j).metricName()), k -> new ArrayList<>()).add(j);
    }
    StringBuilder line = new StringBuilder(256);
    for (Map.Entry<String, List<Integer>> f : families.entrySet()) {
      out.write("# TYPE " + f.getKey() + " " + types.get(f.getValue().get(0)) + "\n");
      for (int j : f.getValue()) {
        String prefix = OpenMetricsExport.seriesText(labels.get(j));
        for (int s = 0; s < scrapes; s++) {
          line.setLength(0);
          line.append(prefix)
              .append(' ')
              .append(OpenMetricsExport.value(values[j][s]))
              .append(' ')
              .append(time(s) / 1000)
              .append('\n');
          out.write(line.toString());
        }
      }
    }
    out.write("# EOF\n");
  }

  private static String type(String name) {
    if (name.endsWith("_bucket") || name.endsWith("_sum") || name.endsWith("_count")) {
      return "histogram";
    }
    return name.endsWith("_total") ? "counter" : "gauge";
  }

  private static String family(String name) {
    for (String suffix : new String[] {"_bucket", "_sum", "_count", "_total"}) {
      if (name.endsWith(suffix)) {
        return name.substring(0, name.length() - suffix.length());
      }
    }
    return name;
  }
}
