package dev.infermon.scrape;

import dev.infermon.model.labels.Labels;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A snapshot of one active target, field for field what Prometheus's {@code /api/v1/targets}
 * returns in {@code activeTargets[]} ({@code web/api/v1/api.go}, type {@code Target}):
 *
 * <pre>
 * discoveredLabels    {@link #discoveredLabels()}   labels before relabeling (map)
 * labels              {@link #labels()}             labels after relabeling, without "__" labels (map)
 * scrapePool          {@link #scrapePool()}
 * scrapeUrl           {@link #scrapeUrl()}
 * globalUrl           {@link #globalUrl()}          the URL with the host as others reach it
 * lastError           {@link #lastError()}          "" when the last scrape succeeded
 * lastWarning         {@link #lastWarning()}        "" when the last scrape stored every sample (infermon's own)
 * lastScrape          {@link #lastScrape()}         RFC 3339; Go's zero time "0001-01-01T00:00:00Z" before the first
 * lastScrapeDuration  {@link #lastScrapeDuration()} seconds, as a JSON number
 * health              {@link #health()}             "up" | "down" | "unknown"
 * scrapeInterval      {@link #scrapeInterval()}     Prometheus duration string, e.g. "15s"
 * scrapeTimeout       {@link #scrapeTimeout()}      Prometheus duration string, e.g. "10s"
 * </pre>
 *
 * @param lastScrape the start of the last scrape, or null before the first
 */
public record TargetStatus(
    Labels discoveredLabels,
    Labels labels,
    String scrapePool,
    String scrapeUrl,
    String globalUrl,
    String lastError,
    String lastWarning,
    Instant lastScrape,
    Duration lastScrapeDuration,
    TargetHealth health,
    Duration scrapeInterval,
    Duration scrapeTimeout) {
  public TargetStatus {
    Objects.requireNonNull(discoveredLabels, "discoveredLabels");
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(scrapePool, "scrapePool");
    Objects.requireNonNull(scrapeUrl, "scrapeUrl");
    Objects.requireNonNull(globalUrl, "globalUrl");
    Objects.requireNonNull(lastError, "lastError");
    Objects.requireNonNull(lastWarning, "lastWarning");
    Objects.requireNonNull(lastScrapeDuration, "lastScrapeDuration");
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(scrapeInterval, "scrapeInterval");
    Objects.requireNonNull(scrapeTimeout, "scrapeTimeout");
  }
}
