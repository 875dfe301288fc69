package dev.infermon.lint;

/**
 * Every check lint makes, with its stable id (used in output, SARIF rules and suppressions), its
 * default severity and a one-line description. docs/lint.md has one section per id, headed by the
 * id: SARIF's help links point at them.
 */
public enum CheckId {
  PARSE_ERROR("parse-error", Severity.ERROR, "The expression or file does not parse."),
  INPUT_ERROR(
      "input-error",
      Severity.ERROR,
      "The input cannot be linted: a file that cannot be read, an endpoint that cannot be scraped,"
          + " JSON that is not a dashboard."),
  UNKNOWN_METRIC(
      "unknown-metric", Severity.ERROR, "No endpoint exposes this metric name (empty result)."),
  COUNTER_WITHOUT_TOTAL(
      "counter-without-total",
      Severity.ERROR,
      "A counter is exposed with _total; the query omits it."),
  ADDED_LATER(
      "added-later",
      Severity.WARNING,
      "The metric exists only from a later release than the endpoints run."),
  DEPRECATED_METRIC(
      "deprecated-metric", Severity.WARNING, "The metric is deprecated and will be hidden."),
  REMOVED_METRIC(
      "removed-metric",
      Severity.ERROR,
      "The metric is hidden or removed in the release the endpoints run."),
  CONDITIONAL_METRIC_OFF(
      "conditional-metric-off",
      Severity.WARNING,
      "The metric exists only behind a flag that the endpoints do not set."),
  UNKNOWN_LABEL("unknown-label", Severity.ERROR, "The metric does not carry this label."),
  PREFIX_SPELLING(
      "prefix-spelling",
      Severity.ERROR,
      "The endpoints spell the engine's prefix differently (sglang: vs sglang_)."),
  RATE_ON_GAUGE("rate-on-gauge", Severity.ERROR, "rate/irate/increase applied to a gauge."),
  COUNTER_WITHOUT_RATE(
      "counter-without-rate",
      Severity.WARNING,
      "A counter is used as a level, without rate or increase."),
  QUANTILE_WITHOUT_LE(
      "quantile-without-le",
      Severity.ERROR,
      "histogram_quantile over an aggregation that drops the le label."),
  SUM_OVER_DUPLICATES(
      "sum-over-duplicates",
      Severity.WARNING,
      "A sum over series that repeat one value (SGLang TP ranks) or over a ratio (vLLM engines)."),
  THRESHOLD_BETWEEN_BUCKETS(
      "threshold-between-buckets",
      Severity.ERROR,
      "A quantile is compared with a value that is not a bucket bound: it is interpolated."),
  BOUND_MISSING_IN_RELEASE(
      "bound-missing-in-release",
      Severity.ERROR,
      "A threshold or le value is a bucket bound in some releases the targets may run, not in all."),
  SHORT_FOR(
      "short-for", Severity.WARNING, "A latency-quantile alert fires after less than 5 minutes."),
  SHORT_RATE_WINDOW(
      "short-rate-window",
      Severity.WARNING,
      "A rate window shorter than four scrape intervals gives gaps and noise."),
  AVG_ACROSS_ENGINES(
      "avg-across-engines",
      Severity.WARNING,
      "An avg over a gauge that data-parallel engines split: max for ratios, sum for counts."),
  MISLEADING_GAUGE(
      "misleading-gauge",
      Severity.WARNING,
      "A gauge the engine's docs say not to use (batch-local, holds its last value)."),
  LABEL_NOT_CARRIED(
      "label-not-carried",
      Severity.WARNING,
      "A grouping label or a legend's {{label}} that the series do not carry."),
  UP_WITHOUT_ABSENT(
      "up-without-absent",
      Severity.WARNING,
      "An alert on a low up that cannot fire when the targets vanish."),
  ROLE_BY_POD_NAME(
      "role-by-pod-name",
      Severity.WARNING,
      "Prefill or decode pods chosen by a pod-name regex instead of their role label."),
  SUM_WITHOUT_COUNT(
      "sum-without-count",
      Severity.WARNING,
      "A histogram's _sum rate shown as a time, without its _count."),
  SLO_THRESHOLD_NOT_BUCKET(
      "slo-threshold-not-bucket",
      Severity.ERROR,
      "An SLO's latency threshold is not a bucket bound of the histogram.");

  private final String id;
  private final Severity severity;
  private final String description;

  CheckId(String id, Severity severity, String description) {
    this.id = id;
    this.severity = severity;
    this.description = description;
  }

  /** The stable id ({@code unknown-metric}). */
  public String id() {
    return id;
  }

  /** The severity findings of this check have unless the check says otherwise. */
  public Severity severity() {
    return severity;
  }

  public String description() {
    return description;
  }

  /**
   * The check with id {@code id}.
   *
   * @throws IllegalArgumentException naming the id when there is none
   */
  public static CheckId fromId(String id) {
    for (CheckId c : values()) {
      if (c.id.equals(id)) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown check id: \"" + id + "\"");
  }
}
