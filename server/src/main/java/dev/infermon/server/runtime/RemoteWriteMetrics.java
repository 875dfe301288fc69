package dev.infermon.server.runtime;

import dev.infermon.remote.write.QueueManager;
import dev.infermon.remote.write.QueueStats;
import dev.infermon.remote.write.RemoteWrite;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The remote-write queues' counters as {@code infermon_remote_storage_*} metrics, labelled by queue
 * name ({@code remote_name}), read at scrape time. Names follow Prometheus's {@code
 * prometheus_remote_storage_*} so its dashboards translate by prefix.
 */
final class RemoteWriteMetrics {
  private RemoteWriteMetrics() {}

  static void bind(PrometheusRegistry registry, Supplier<RemoteWrite> queues) {
    counter(
        registry,
        queues,
        "samples_in_total",
        "Samples handed to the queue.",
        QueueStats::samplesIn);
    counter(
        registry,
        queues,
        "samples_total",
        "Samples the receiver accepted.",
        QueueStats::sentSamples);
    counter(
        registry,
        queues,
        "samples_failed_total",
        "Samples the receiver rejected for good (4xx other than a retried 429).",
        QueueStats::failedSamples);
    counter(
        registry,
        queues,
        "samples_retried_total",
        "Samples sent again after a recoverable failure.",
        QueueStats::retriedSamples);
    counter(
        registry,
        queues,
        "bytes_total",
        "Compressed bytes of accepted requests.",
        QueueStats::bytesSent);
    counter(
        registry,
        queues,
        "metadata_total",
        "Metadata entries the receiver accepted.",
        QueueStats::metadataSent);
    CounterWithCallback.builder()
        .name("infermon_remote_storage_samples_dropped_total")
        .help(
            "Samples never sent, by reason: relabel (write_relabel_configs), queue_full (the"
                + " receiver was away longer than the queue holds), shutdown.")
        .labelNames("remote_name", "reason")
        .callback(
            cb -> {
              for (QueueManager q : each(queues)) {
                QueueStats s = q.stats();
                cb.call(s.droppedByRelabeling(), q.name(), "relabel");
                cb.call(s.droppedQueueFull(), q.name(), "queue_full");
                cb.call(s.droppedAtShutdown(), q.name(), "shutdown");
              }
            })
        .register(registry);
    gauge(
        registry,
        queues,
        "samples_pending",
        "Samples queued or in a request under way.",
        s -> s.pendingSamples(),
        1);
    gauge(
        registry,
        queues,
        "queue_highest_sent_timestamp_seconds",
        "Newest sample timestamp the receiver accepted.",
        QueueStats::highestSentTimestampMs,
        1000);
    gauge(
        registry,
        queues,
        "highest_timestamp_in_seconds",
        "Newest sample timestamp handed to the queue.",
        QueueStats::highestInTimestampMs,
        1000);
  }

  private static Iterable<QueueManager> each(Supplier<RemoteWrite> queues) {
    RemoteWrite rw = queues.get();
    return rw == null ? java.util.List.of() : rw.queues();
  }

  private static void counter(
      PrometheusRegistry registry,
      Supplier<RemoteWrite> queues,
      String name,
      String help,
      ToLongFunction<QueueStats> value) {
    CounterWithCallback.builder()
        .name("infermon_remote_storage_" + name)
        .help(help)
        .labelNames("remote_name")
        .callback(
            cb -> {
              for (QueueManager q : each(queues)) {
                cb.call(value.applyAsLong(q.stats()), q.name());
              }
            })
        .register(registry);
  }

  private static void gauge(
      PrometheusRegistry registry,
      Supplier<RemoteWrite> queues,
      String name,
      String help,
      ToLongFunction<QueueStats> value,
      double divisor) {
    GaugeWithCallback.builder()
        .name("infermon_remote_storage_" + name)
        .help(help)
        .labelNames("remote_name")
        .callback(
            cb -> {
              for (QueueManager q : each(queues)) {
                long v = value.applyAsLong(q.stats());
                if (v != Long.MIN_VALUE) {
                  cb.call(v / divisor, q.name());
                }
              }
            })
        .register(registry);
  }
}
