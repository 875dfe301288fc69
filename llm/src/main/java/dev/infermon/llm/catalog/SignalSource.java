package dev.infermon.llm.catalog;

import dev.infermon.llm.signals.Aggregation;
import dev.infermon.llm.signals.Signal;
import java.util.List;
import java.util.Map;

/**
 * Where one engine finds a canonical signal: one family (or several to add up), the label matchers
 * that pick the right series, and how its series combine.
 *
 * @param engine the engine
 * @param signal the signal
 * @param metrics the catalog family names (without prefix); several are summed
 * @param aggregation how series of one group combine (sum for counts, max/avg for ratios)
 * @param dedupe whether the engine's duplicate-reporting labels ({@code tp_rank}, ...) are
 *     collapsed with max before aggregating
 * @param match label matchers: value "" means the label is absent, else an anchored regex
 * @param by extra labels the signal keeps ({@code reason}, {@code finished_reason})
 * @param scale factor to the signal's unit (100 for a 0–1 ratio shown in percent)
 * @param zeroWhenAbsent whether an absent family means zero (a lazily created failure counter)
 * @param since first release where this source applies, or null for the family's own
 * @param note what a user must know about the mapping
 * @param valueLabels labels whose numbers are the value, multiplied (an info gauge's value is 1 and
 *     its labels carry the config: vLLM's {@code cache_config_info{num_gpu_blocks, block_size}});
 *     empty for the sample value
 * @param modelFromPod whether the family lacks {@code model_name} and takes it (and {@code role})
 *     from the inference pod its series belong to
 * @param series the sample suffix read for a counter signal kept in a histogram ({@code _sum}: TGI
 *     counts tokens only as its length histograms' sums), else empty
 * @param product whether the value is the product of the {@code metrics}, series matched one to
 *     one, instead of their sum (TensorRT-LLM's KV capacity in tokens: max blocks x tokens per
 *     block, two gauges with the same labels); every family must be present
 */
public record SignalSource(
    String engine,
    Signal signal,
    List<String> metrics,
    Aggregation aggregation,
    boolean dedupe,
    Map<String, String> match,
    List<String> by,
    double scale,
    boolean zeroWhenAbsent,
    ReleaseLine since,
    String note,
    List<String> valueLabels,
    boolean modelFromPod,
    String series,
    boolean product) {
  public SignalSource {
    series = series == null ? "" : series;
    if (!series.isEmpty() && !series.equals("_sum") && !series.equals("_count")) {
      throw new IllegalArgumentException("series must be _sum or _count, got \"" + series + "\"");
    }
    metrics = List.copyOf(metrics);
    valueLabels = List.copyOf(valueLabels);
    match = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(match));
    by = List.copyOf(by);
    if (metrics.isEmpty()) {
      throw new IllegalArgumentException(signal + " of " + engine + " names no metric");
    }
    if (product && (metrics.size() < 2 || !valueLabels.isEmpty() || !series.isEmpty())) {
      throw new IllegalArgumentException(
          "a product of "
              + signal
              + " of "
              + engine
              + " needs two metrics or more, read as samples");
    }
  }

  /** A source reading the family's own samples. */
  public SignalSource(
      String engine,
      Signal signal,
      List<String> metrics,
      Aggregation aggregation,
      boolean dedupe,
      Map<String, String> match,
      List<String> by,
      double scale,
      boolean zeroWhenAbsent,
      ReleaseLine since,
      String note) {
    this(
        engine,
        signal,
        metrics,
        aggregation,
        dedupe,
        match,
        by,
        scale,
        zeroWhenAbsent,
        since,
        note,
        List.of(),
        false,
        "",
        false);
  }
}
