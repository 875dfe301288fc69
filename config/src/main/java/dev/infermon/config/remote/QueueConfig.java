package dev.infermon.config.remote;

import dev.infermon.config.yaml.YamlKey;
import java.time.Duration;

/** Remote-write queue tuning ({@code queue_config}); defaults are Prometheus 3's. */
public record QueueConfig(
    int capacity,
    int maxShards,
    int minShards,
    int maxSamplesPerSend,
    Duration batchSendDeadline,
    Duration minBackoff,
    Duration maxBackoff,
    @YamlKey("retry_on_http_429") boolean retryOnHttp429,
    Duration sampleAgeLimit) {
  /** Prometheus 3's {@code DefaultQueueConfig}. */
  public static final QueueConfig DEFAULT =
      new QueueConfig(
          10_000,
          50,
          1,
          2_000,
          Duration.ofSeconds(5),
          Duration.ofMillis(30),
          Duration.ofSeconds(5),
          false,
          Duration.ZERO);
}
