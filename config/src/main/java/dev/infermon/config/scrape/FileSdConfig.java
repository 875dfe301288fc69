package dev.infermon.config.scrape;

import java.time.Duration;
import java.util.List;

/** File-based discovery ({@code file_sd_configs}): globs of JSON/YAML target files. */
public record FileSdConfig(List<String> files, Duration refreshInterval) {
  /** Prometheus's default re-read interval. */
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofMinutes(5);
}
