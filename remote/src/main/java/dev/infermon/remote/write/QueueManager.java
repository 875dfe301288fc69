package dev.infermon.remote.write;

import dev.infermon.config.remote.QueueConfig;
import dev.infermon.config.remote.RemoteWriteConfig;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.relabel.Relabel;
import dev.infermon.model.relabel.RelabelConfig;
import dev.infermon.storage.CommittedBatch;
import dev.infermon.storage.SampleSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The remote-write queue of one endpoint ({@code remote_write[i]}): a {@link SampleSink} behind the
 * storage fanout that sees every committed sample, adds the external labels, applies {@code
 * write_relabel_configs}, and hands each sample to the shard its series hashes to. Shards batch,
 * encode and send (see {@link Shard}); metadata goes out on its own schedule ({@link
 * MetadataSender}).
 *
 * <p>Buffering: infermon does not tail its write-ahead log for remote write, so the queue is the
 * buffer that rides out a slow or absent receiver. It holds at most {@code capacity × max_shards}
 * samples across its shards (the most Prometheus keeps in memory per queue); a sample that arrives
 * when it is full is dropped and counted ({@link QueueStats#droppedQueueFull()}). The number of
 * shards is fixed at {@code min_shards} (at least 1): infermon does not reshard at run time.
 *
 * <p>Thread-safe: {@link #accept} never blocks on the network and may be called from any number of
 * committing threads.
 */
public final class QueueManager implements SampleSink, AutoCloseable {
  /** Prometheus's {@code --storage.remote.flush-deadline}. */
  public static final Duration DEFAULT_FLUSH_DEADLINE = Duration.ofMinutes(1);

  /** A dropped series in the relabel cache. */
  private static final Labels DROPPED = Labels.of("__dropped__", "1");

  /** Bound on the relabel cache; cleared when reached (series churn). */
  private static final int MAX_CACHED_SERIES = 1 << 20;

  private final Settings settings;
  private final QueueStats stats = new QueueStats();
  private final Shard[] shards;
  private final Thread[] threads;
  private final MetadataSender metadata;
  private final Labels externalLabels;
  private final List<RelabelConfig> relabel;
  private final ConcurrentHashMap<Labels, Labels> relabelCache = new ConcurrentHashMap<>();
  private final long limit;
  private final CountDownLatch abort = new CountDownLatch(1);

  /** What the shards need to know, resolved from the config. Immutable. */
  record Settings(
      String name,
      int maxSamplesPerSend,
      long batchSendDeadlineNanos,
      long minBackoffMs,
      long maxBackoffMs,
      boolean retryOn429,
      AtomicBoolean closing) {}

  private QueueManager(RemoteWriteConfig cfg, Labels externalLabels, String userAgent) {
    QueueConfig q = cfg.queueConfig();
    require(q.capacity() > 0, "queue_config.capacity must be positive: " + q.capacity());
    require(q.maxShards() > 0, "queue_config.max_shards must be positive: " + q.maxShards());
    require(
        q.maxSamplesPerSend() > 0,
        "queue_config.max_samples_per_send must be positive: " + q.maxSamplesPerSend());
    require(
        !q.minBackoff().isNegative() && !q.maxBackoff().isNegative(),
        "queue_config backoffs must not be negative");
    this.settings =
        new Settings(
            name(cfg),
            q.maxSamplesPerSend(),
            Math.max(1, q.batchSendDeadline().toNanos()),
            Math.max(1, q.minBackoff().toMillis()),
            Math.max(1, Math.max(q.minBackoff().toMillis(), q.maxBackoff().toMillis())),
            q.retryOnHttp429(),
            new AtomicBoolean());
    this.externalLabels = externalLabels;
    this.relabel = List.copyOf(cfg.writeRelabelConfigs());
    this.limit = (long) q.capacity() * q.maxShards();
    EndpointClient client = new EndpointClient(cfg, userAgent);
    int n = Math.min(Math.max(1, q.minShards()), q.maxShards());
    this.shards = new Shard[n];
    this.threads = new Thread[n];
    for (int i = 0; i < n; i++) {
      shards[i] = new Shard(settings, client, stats, abort);
      threads[i] = new Thread(shards[i], "remote-write-" + settings.name() + "-" + i);
      threads[i].setDaemon(true);
    }
    this.metadata =
        cfg.metadataConfig().send()
            ? new MetadataSender(settings.name(), cfg.metadataConfig(), client, stats)
            : null;
  }

  /**
   * Starts the queue of one endpoint.
   *
   * @param externalLabels {@code global.external_labels}, added to each series that lacks them
   * @param userAgent the {@code User-Agent} header, e.g. {@code infermon/0.1.0}
   * @throws IllegalArgumentException when the queue settings are invalid
   */
  public static QueueManager start(RemoteWriteConfig cfg, Labels externalLabels, String userAgent) {
    QueueManager m = new QueueManager(cfg, externalLabels, userAgent);
    for (Thread t : m.threads) {
      t.start();
    }
    if (m.metadata != null) {
      m.metadata.start();
    }
    return m;
  }

  /** The queue's name: {@code name} from the config, else the URL's host and port. */
  public String name() {
    return settings.name();
  }

  /** Live counters of this queue. */
  public QueueStats stats() {
    return stats;
  }

  /** Number of sending shards. */
  public int shards() {
    return shards.length;
  }

  @Override
  public void accept(CommittedBatch batch) {
    if (metadata != null) {
      for (CommittedBatch.MetadataUpdate u : batch.metadata()) {
        metadata.update(u.labels(), u.metadata());
      }
    }
    int n = batch.size();
    if (n == 0) {
      return;
    }
    stats.samplesIn.add(n);
    if (settings.closing().get()) {
      stats.droppedShutdown.add(n);
      return;
    }
    long newest = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      long t = batch.timestamp(i);
      newest = Math.max(newest, t);
      Labels l = outgoing(batch.labels(i));
      if (l == null) {
        stats.droppedRelabel.increment();
        continue;
      }
      if (stats.pending.incrementAndGet() > limit) {
        stats.pending.decrementAndGet();
        stats.droppedQueueFull.increment();
        continue;
      }
      shards[shardOf(l)].buffer.add(l, t, batch.value(i));
    }
    stats.highestInMs.accumulate(newest);
  }

  private int shardOf(Labels l) {
    return shards.length == 1 ? 0 : (int) Long.remainderUnsigned(l.hash64(), shards.length);
  }

  /** The labels sent for a series, or null when write relabeling drops it. */
  private Labels outgoing(Labels l) {
    if (externalLabels.isEmpty() && relabel.isEmpty()) {
      return l;
    }
    Labels out = relabelCache.get(l);
    if (out == null) {
      out = Relabel.process(withExternalLabels(l), relabel);
      if (out == null) {
        out = DROPPED;
      }
      if (relabelCache.size() >= MAX_CACHED_SERIES) {
        relabelCache.clear();
      }
      relabelCache.put(l, out);
    }
    return out == DROPPED ? null : out;
  }

  private Labels withExternalLabels(Labels l) {
    if (externalLabels.isEmpty()) {
      return l;
    }
    Labels.Builder b = null;
    for (int i = 0; i < externalLabels.size(); i++) {
      if (!l.has(externalLabels.name(i))) {
        if (b == null) {
          b = l.toBuilder();
        }
        b.set(externalLabels.name(i), externalLabels.value(i));
      }
    }
    return b == null ? l : b.build();
  }

  /** Flushes for up to {@link #DEFAULT_FLUSH_DEADLINE}, then stops. */
  @Override
  public void close() {
    close(DEFAULT_FLUSH_DEADLINE);
  }

  /**
   * Stops taking samples, sends what is queued for up to {@code flushDeadline}, then gives up:
   * whatever is still queued or being retried is dropped and counted as dropped at shutdown.
   */
  public void close(Duration flushDeadline) {
    if (!settings.closing().compareAndSet(false, true)) {
      return;
    }
    if (metadata != null) {
      metadata.close();
    }
    for (Shard s : shards) {
      s.buffer.close();
    }
    long until = System.nanoTime() + flushDeadline.toNanos();
    try {
      for (Thread t : threads) {
        long left = until - System.nanoTime();
        if (left > 0) {
          TimeUnit.NANOSECONDS.timedJoin(t, left);
        }
      }
      abort.countDown();
      for (Thread t : threads) {
        t.interrupt();
        t.join(TimeUnit.SECONDS.toMillis(10));
      }
    } catch (InterruptedException e) {
      abort.countDown();
      Thread.currentThread().interrupt();
    }
  }

  private static String name(RemoteWriteConfig cfg) {
    if (cfg.name() != null && !cfg.name().isEmpty()) {
      return cfg.name();
    }
    java.net.URI u = cfg.url().uri();
    return u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "");
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  /** The names of the queues, for messages. */
  static List<String> names(List<QueueManager> queues) {
    List<String> out = new ArrayList<>();
    for (QueueManager q : queues) {
      out.add(q.name());
    }
    return out;
  }

  @Override
  public String toString() {
    return "QueueManager[" + settings.name() + ", " + stats + "]";
  }
}
