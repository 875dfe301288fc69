package dev.infermon.notifier;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.relabel.RelabelConfig;
import java.util.List;
import java.util.Objects;

/**
 * Notifier settings with Prometheus's defaults.
 *
 * @param queueCapacity {@code --alertmanager.notification-queue-capacity} (10000); when full the
 *     oldest alerts are dropped
 * @param maxBatchSize the most alerts per request (64, Prometheus 2.x's {@code maxBatchSize})
 * @param externalLabels added to each alert that lacks the label
 * @param alertRelabelConfigs {@code alerting.alert_relabel_configs}, applied after external labels
 */
public record NotifierOptions(
    int queueCapacity,
    int maxBatchSize,
    Labels externalLabels,
    List<RelabelConfig> alertRelabelConfigs) {
  public static final int DEFAULT_QUEUE_CAPACITY = 10_000;
  public static final int DEFAULT_MAX_BATCH_SIZE = 64;

  public static final NotifierOptions DEFAULTS =
      new NotifierOptions(DEFAULT_QUEUE_CAPACITY, DEFAULT_MAX_BATCH_SIZE, Labels.EMPTY, List.of());

  public NotifierOptions {
    if (queueCapacity < 1) {
      throw new IllegalArgumentException("queueCapacity must be positive, got " + queueCapacity);
    }
    if (maxBatchSize < 1) {
      throw new IllegalArgumentException("maxBatchSize must be positive, got " + maxBatchSize);
    }
    Objects.requireNonNull(externalLabels, "externalLabels");
    alertRelabelConfigs = List.copyOf(alertRelabelConfigs);
  }

  public NotifierOptions withExternalLabels(Labels l) {
    return new NotifierOptions(queueCapacity, maxBatchSize, l, alertRelabelConfigs);
  }

  public NotifierOptions withAlertRelabelConfigs(List<RelabelConfig> r) {
    return new NotifierOptions(queueCapacity, maxBatchSize, externalLabels, r);
  }

  public NotifierOptions withQueueCapacity(int n) {
    return new NotifierOptions(n, maxBatchSize, externalLabels, alertRelabelConfigs);
  }
}
