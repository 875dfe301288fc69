package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Queryable;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * What the rule manager works with, and Prometheus's {@code --rules.*} settings.
 *
 * @param query how rules query
 * @param appendable where recording rules, {@code ALERTS} and {@code ALERTS_FOR_STATE} go
 * @param queryable where {@code ALERTS_FOR_STATE} is read back on restart
 * @param notifier where alerts are sent
 * @param externalLabels {@code global.external_labels}, for {@code $externalLabels}
 * @param externalUrl {@code --web.external-url} without a trailing slash, for {@code generatorURL}
 * @param defaultInterval {@code global.evaluation_interval} (1m)
 * @param defaultQueryOffset {@code global.rule_query_offset} (0)
 * @param resendDelay {@code --rules.alert.resend-delay} (1m)
 * @param outageTolerance {@code --rules.alert.for-outage-tolerance} (1h)
 * @param forGracePeriod {@code --rules.alert.for-grace-period} (10m)
 * @param clock wall-clock milliseconds (tests pass a fake)
 * @param annotator what adds annotations to active alerts ({@link AlertAnnotator#NONE})
 * @param annotatorTimeout how long one evaluation of an alerting rule waits for its alerts'
 *     annotations (10s)
 */
public record RuleManagerOptions(
    QueryFunction query,
    Appendable appendable,
    Queryable queryable,
    AlertNotifier notifier,
    Labels externalLabels,
    String externalUrl,
    Duration defaultInterval,
    Duration defaultQueryOffset,
    Duration resendDelay,
    Duration outageTolerance,
    Duration forGracePeriod,
    LongSupplier clock,
    AlertAnnotator annotator,
    Duration annotatorTimeout) {
  public static final Duration DEFAULT_ANNOTATOR_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_RESEND_DELAY = Duration.ofMinutes(1);
  public static final Duration DEFAULT_OUTAGE_TOLERANCE = Duration.ofHours(1);
  public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofMinutes(10);
  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);

  public RuleManagerOptions {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(appendable, "appendable");
    Objects.requireNonNull(queryable, "queryable");
    Objects.requireNonNull(notifier, "notifier");
    Objects.requireNonNull(externalLabels, "externalLabels");
    Objects.requireNonNull(externalUrl, "externalUrl");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(annotator, "annotator");
    if (annotatorTimeout == null || annotatorTimeout.isZero() || annotatorTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "annotatorTimeout must be positive, got " + annotatorTimeout);
    }
    if (defaultInterval == null || defaultInterval.isZero() || defaultInterval.isNegative()) {
      throw new IllegalArgumentException(
          "defaultInterval must be positive, got " + defaultInterval);
    }
    for (Duration d :
        new Duration[] {defaultQueryOffset, resendDelay, outageTolerance, forGracePeriod}) {
      if (d == null || d.isNegative()) {
        throw new IllegalArgumentException("durations must not be negative, got " + d);
      }
    }
  }

  /** Options with Prometheus's defaults, no external labels or URL, the system clock. */
  public static RuleManagerOptions defaults(
      QueryFunction query, Appendable appendable, Queryable queryable, AlertNotifier notifier) {
    return new RuleManagerOptions(
        query,
        appendable,
        queryable,
        notifier,
        Labels.EMPTY,
        "",
        DEFAULT_INTERVAL,
        Duration.ZERO,
        DEFAULT_RESEND_DELAY,
        DEFAULT_OUTAGE_TOLERANCE,
        DEFAULT_GRACE_PERIOD,
        System::currentTimeMillis,
        AlertAnnotator.NONE,
        DEFAULT_ANNOTATOR_TIMEOUT);
  }

  public RuleManagerOptions withExternal(Labels labels, String url) {
    return new RuleManagerOptions(
        query,
        appendable,
        queryable,
        notifier,
        labels,
        url.endsWith("/") ? url.substring(0, url.length() - 1) : url,
        defaultInterval,
        defaultQueryOffset,
        resendDelay,
        outageTolerance,
        forGracePeriod,
        clock,
        annotator,
        annotatorTimeout);
  }

  public RuleManagerOptions withDefaultInterval(Duration d) {
    return new RuleManagerOptions(
        query,
        appendable,
        queryable,
        notifier,
        externalLabels,
        externalUrl,
        d,
        defaultQueryOffset,
        resendDelay,
        outageTolerance,
        forGracePeriod,
        clock,
        annotator,
        annotatorTimeout);
  }

  public RuleManagerOptions withClock(LongSupplier c) {
    return new RuleManagerOptions(
        query,
        appendable,
        queryable,
        notifier,
        externalLabels,
        externalUrl,
        defaultInterval,
        defaultQueryOffset,
        resendDelay,
        outageTolerance,
        forGracePeriod,
        c,
        annotator,
        annotatorTimeout);
  }

  public RuleManagerOptions withAlertTiming(Duration resend, Duration outage, Duration grace) {
    return new RuleManagerOptions(
        query,
        appendable,
        queryable,
        notifier,
        externalLabels,
        externalUrl,
        defaultInterval,
        defaultQueryOffset,
        resend,
        outage,
        grace,
        clock,
        annotator,
        annotatorTimeout);
  }

  /**
   * These options with {@code a} annotating active alerts, each evaluation waiting {@code timeout}.
   */
  public RuleManagerOptions withAnnotator(AlertAnnotator a, Duration timeout) {
    return new RuleManagerOptions(
        query,
        appendable,
        queryable,
        notifier,
        externalLabels,
        externalUrl,
        defaultInterval,
        defaultQueryOffset,
        resendDelay,
        outageTolerance,
        forGracePeriod,
        clock,
        a,
        timeout);
  }

  EvalContext evalContext() {
    return new EvalContext(query, externalLabels, externalUrl);
  }
}
