package dev.infermon.web.retrieval;

import dev.infermon.model.labels.Labels;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One active target as {@code /api/v1/targets} shows it ({@code activeTargets[]}).
 *
 * @param lastWarning what the last scrape could not store (samples too far in the future, too old);
 *     "" when it stored every sample. Not in Prometheus's API: written only when not empty
 * @param health {@code up}, {@code down} or {@code unknown}
 * @param lastScrape the start of the last scrape; empty before the first
 */
public record ActiveTarget(
    Labels discoveredLabels,
    Labels labels,
    String scrapePool,
    String scrapeUrl,
    String globalUrl,
    String lastError,
    String lastWarning,
    Optional<Instant> lastScrape,
    Duration lastScrapeDuration,
    String health,
    Duration scrapeInterval,
    Duration scrapeTimeout) {
  public ActiveTarget {
    Objects.requireNonNull(discoveredLabels, "discoveredLabels");
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(scrapePool, "scrapePool");
    Objects.requireNonNull(scrapeUrl, "scrapeUrl");
    Objects.requireNonNull(globalUrl, "globalUrl");
    Objects.requireNonNull(lastError, "lastError");
    Objects.requireNonNull(lastWarning, "lastWarning");
    Objects.requireNonNull(lastScrape, "lastScrape");
    Objects.requireNonNull(lastScrapeDuration, "lastScrapeDuration");
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(scrapeInterval, "scrapeInterval");
    Objects.requireNonNull(scrapeTimeout, "scrapeTimeout");
  }
}
