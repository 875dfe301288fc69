package dev.infermon.config.remote;

import java.time.Duration;

/** Whether and how often remote write sends metric metadata ({@code metadata_config}). */
public record MetadataConfig(boolean send, Duration sendInterval, int maxSamplesPerSend) {
  public static final MetadataConfig DEFAULT =
      new MetadataConfig(true, Duration.ofMinutes(1), 2_000);
}
