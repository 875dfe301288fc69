package dev.infermon.simulator.replay;

import dev.infermon.model.metadata.MetricType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What each sample of a capture does over time, from the {@code # TYPE} lines seen so far: a sample
 * name is looked up as a family first, then with one of the sample suffixes stripped ({@code
 * _total}, {@code _bucket}, ...), so both the text format's {@code # TYPE x_total counter} and
 * OpenMetrics' {@code # TYPE x counter} resolve. Not thread-safe; one per parse.
 */
final class SampleKinds {
  /** How a sample's value changes between scrapes. */
  enum Kind {
    /** Stays as captured: gauges, {@code _created}, summary quantiles, info, stateset. */
    FIXED,
    /** A counter's own sample: advances; an integer in the capture stays an integer. */
    COUNTER,
    /** A histogram's {@code _bucket} or {@code _count}, a summary's {@code _count}: advances. */
    COUNT,
    /** A histogram's or summary's {@code _sum}: advances with its count. */
    SUM
  }

  private static final List<String> SUFFIXES =
      List.of("_total", "_created", "_bucket", "_count", "_sum", "_gcount", "_gsum", "_info");

  private final Map<String, MetricType> types = new HashMap<>();

  /** Records a {@code # TYPE} line; a repeated family (Ray) keeps its latest type. */
  void type(String family, MetricType type) {
    types.put(family, type);
  }

  /** The kind of a sample named {@code sample} (the sample name, e.g. {@code x_bucket}). */
  Kind kind(String sample) {
    MetricType direct = types.get(sample);
    if (direct != null) {
      switch (direct) {
        case COUNTER:
          return Kind.COUNTER;
        case UNKNOWN:
          return byConvention(sample);
        default:
          // a gauge, a summary's quantile, an info or stateset sample
          return Kind.FIXED;
      }
    }
    for (String suffix : SUFFIXES) {
      if (sample.length() > suffix.length() && sample.endsWith(suffix)) {
        MetricType t = types.get(sample.substring(0, sample.length() - suffix.length()));
        if (t != null) {
          return ofFamily(t, suffix, sample);
        }
      }
    }
    return byConvention(sample);
  }

  private static Kind ofFamily(MetricType t, String suffix, String sample) {
    switch (t) {
      case COUNTER:
        return suffix.equals("_total") ? Kind.COUNTER : Kind.FIXED;
      case HISTOGRAM:
        if (suffix.equals("_bucket") || suffix.equals("_count")) {
          return Kind.COUNT;
        }
        return suffix.equals("_sum") ? Kind.SUM : Kind.FIXED;
      case SUMMARY:
        if (suffix.equals("_count")) {
          return Kind.COUNT;
        }
        return suffix.equals("_sum") ? Kind.SUM : Kind.FIXED;
      case UNKNOWN:
        return byConvention(sample);
      default:
        return Kind.FIXED;
    }
  }

  /** An untyped sample: a counter when its name says so, else a gauge. */
  private static Kind byConvention(String sample) {
    return sample.endsWith("_total") ? Kind.COUNTER : Kind.FIXED;
  }

  /**
   * The engine a sample name belongs to, by the prefixes the engines write: {@code vllm} ({@code
   * vllm:}, Ray Serve's {@code ray_vllm:}), {@code sglang} ({@code sglang:}, the gateway's {@code
   * sglang_}), {@code tgi} (Hugging Face TGI's {@code tgi_}), {@code dcgm} ({@code DCGM_FI_}); null
   * for any other name.
   */
  static String engineOf(String sample) {
    if (sample.startsWith("vllm:") || sample.startsWith("ray_vllm:")) {
      return "vllm";
    }
    if (sample.startsWith("sglang:") || sample.startsWith("sglang_")) {
      return "sglang";
    }
    if (sample.startsWith("tgi_")) {
      return "tgi";
    }
    if (sample.startsWith("DCGM_FI_")) {
      return "dcgm";
    }
    return null;
  }
}
