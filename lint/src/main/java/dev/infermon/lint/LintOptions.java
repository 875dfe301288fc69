package dev.infermon.lint;

import dev.infermon.promql.parser.PromqlParser;
import java.time.Duration;

/**
 * Settings of a lint run. Immutable.
 *
 * @param scrapeInterval the scrape interval the queries run against: rate windows shorter than four
 *     of it are flagged (Prometheus's default is 1m; infermon's simulator and most LLM deployments
 *     scrape every 15s)
 * @param minLatencyFor the shortest {@code for} a latency-quantile alert should have
 */
public record LintOptions(Duration scrapeInterval, Duration minLatencyFor) {
  /** The scrape interval assumed when not told, as a PromQL duration (the CLI's default). */
  public static final String DEFAULT_SCRAPE_INTERVAL = "15s";

  /** 15 s scrapes, 5 minutes of {@code for}. */
  public static final LintOptions DEFAULT =
      new LintOptions(
          Duration.ofMillis(PromqlParser.parseDuration(DEFAULT_SCRAPE_INTERVAL)),
          Duration.ofMinutes(5));

  public LintOptions {
    if (scrapeInterval == null || scrapeInterval.isNegative() || scrapeInterval.isZero()) {
      throw new IllegalArgumentException("scrape interval must be positive, got " + scrapeInterval);
    }
    if (minLatencyFor == null || minLatencyFor.isNegative()) {
      throw new IllegalArgumentException("minLatencyFor must not be negative: " + minLatencyFor);
    }
  }

  /** These options with another scrape interval. */
  public LintOptions withScrapeInterval(Duration d) {
    return new LintOptions(d, minLatencyFor);
  }
}
