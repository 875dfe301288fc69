package dev.infermon.model.metadata;

import java.util.Locale;

/** The metric types of the text format and OpenMetrics. */
public enum MetricType {
  COUNTER,
  GAUGE,
  HISTOGRAM,
  GAUGEHISTOGRAM,
  SUMMARY,
  INFO,
  STATESET,
  UNKNOWN;

  /** The lower-case name used in {@code # TYPE} lines and in the HTTP API. */
  public String exposedName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a {@code # TYPE} token. The text format calls the unknown type {@code untyped}.
   *
   * @throws IllegalArgumentException naming the token when it is not a type
   */
  public static MetricType parse(String token) {
    switch (token) {
      case "counter":
        return COUNTER;
      case "gauge":
        return GAUGE;
      case "histogram":
        return HISTOGRAM;
      case "gaugehistogram":
        return GAUGEHISTOGRAM;
      case "summary":
        return SUMMARY;
      case "info":
        return INFO;
      case "stateset":
        return STATESET;
      case "unknown":
      case "untyped":
        return UNKNOWN;
      default:
        throw new IllegalArgumentException("unknown metric type: \"" + token + "\"");
    }
  }
}
