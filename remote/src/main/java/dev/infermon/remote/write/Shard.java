package dev.infermon.remote.write;

import dev.infermon.model.labels.Labels;
import dev.infermon.remote.prompb.WriteRequestEncoder;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sending thread of a queue: takes up to {@code max_samples_per_send} samples (or what came
 * within {@code batch_send_deadline}), encodes them and posts them until the receiver takes them.
 * Recoverable failures (network errors, 5xx, 429 when {@code retry_on_http_429}) are retried with
 * backoff from {@code min_backoff} doubling to {@code max_backoff}, or after {@code Retry-After}
 * when the receiver gives one; other statuses fail the batch, which is counted. A series always
 * lands on the same shard, and a shard sends one request at a time, so per-series order holds.
 *
 * <p>Confined to its own thread except {@link #buffer}, which producers feed.
 */
final class Shard implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(Shard.class);
  private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

  final ShardBuffer buffer;
  private final QueueManager.Settings settings;
  private final EndpointClient client;
  private final QueueStats stats;
  private final CountDownLatch abort;
  private final WriteRequestEncoder encoder = new WriteRequestEncoder();
  private final Labels[] labels;
  private final long[] timestamps;
  private final double[] values;
  private long lastWarn = System.nanoTime() - WARN_EVERY_NANOS;

  /**
   * @param abort counted down when the queue gives up on flushing: retries stop and what is left is
   *     dropped and counted
   */
  Shard(
      QueueManager.Settings settings,
      EndpointClient client,
      QueueStats stats,
      CountDownLatch abort) {
    this.settings = settings;
    this.client = client;
    this.stats = stats;
    this.abort = abort;
    int max = settings.maxSamplesPerSend();
    this.buffer = new ShardBuffer(max);
    this.labels = new Labels[max];
    this.timestamps = new long[max];
    this.values = new double[max];
  }

  @Override
  public void run() {
    long deadline = settings.batchSendDeadlineNanos();
    try {
      while (true) {
        int n =
            buffer.take(labels, timestamps, values, labels.length, System.nanoTime() + deadline);
        if (n == 0) {
          if (settings.closing().get() && buffer.size() == 0) {
            return;
          }
          continue;
        }
        if (abort.getCount() == 0) {
          drop(n);
          continue;
        }
        send(n);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      int left = buffer.clear();
      if (left > 0) {
        stats.droppedShutdown.add(left);
        stats.pending.addAndGet(-left);
      }
    }
  }

  private void drop(int n) {
    stats.droppedShutdown.add(n);
    stats.pending.addAndGet(-n);
  }

  private void send(int n) throws InterruptedException {
    byte[] body = encoder.encodeSamples(labels, timestamps, values, n);
    long backoff = settings.minBackoffMs();
    for (int attempt = 0; ; attempt++) {
      if (attempt > 0) {
        stats.retried.add(n);
      }
      stats.requests.increment();
      EndpointClient.Response r;
      String problem;
      long retryAfter = 0;
      try {
        try {
          r = client.post(body);
        } catch (InterruptedException e) {
          // Interrupted only when the queue gave up flushing: the batch is lost, say so.
          drop(n);
          throw e;
        }
        if (r.ok()) {
          delivered(n, body.length);
          return;
        }
        problem = "HTTP " + r.status() + (r.message().isEmpty() ? "" : ": " + r.message());
        retryAfter = r.retryAfterMs();
        boolean recoverable = r.status() / 100 == 5 || (r.status() == 429 && settings.retryOn429());
        if (!recoverable) {
          stats.requestFailures.increment();
          stats.failed.add(n);
          stats.pending.addAndGet(-n);
          log.warn(
              "remote write to {} rejected {} samples for good: {}", settings.name(), n, problem);
          return;
        }
      } catch (IOException e) {
        problem =
            e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
      }
      stats.requestFailures.increment();
      long sleep = sleepFor(backoff, retryAfter);
      warnRecoverable(n, problem, sleep);
      if (abort.await(sleep, TimeUnit.MILLISECONDS)) {
        drop(n);
        return;
      }
      backoff = nextBackoff(sleep, settings.maxBackoffMs());
    }
  }

  /** How long to wait before the next try: the receiver's {@code Retry-After} wins. */
  static long sleepFor(long backoffMs, long retryAfterMs) {
    return retryAfterMs > 0 ? retryAfterMs : backoffMs;
  }

  /** The backoff after having waited {@code sleptMs}: doubled, capped at {@code max_backoff}. */
  static long nextBackoff(long sleptMs, long maxBackoffMs) {
    return Math.min(sleptMs * 2, maxBackoffMs);
  }

  private void delivered(int n, int bytes) {
    long newest = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      newest = Math.max(newest, timestamps[i]);
      labels[i] = null;
    }
    stats.sent.add(n);
    stats.bytesSent.add(bytes);
    stats.highestSentMs.accumulate(newest);
    stats.pending.addAndGet(-n);
  }

  private void warnRecoverable(int n, String problem, long sleepMs) {
    long now = System.nanoTime();
    if (now - lastWarn >= WARN_EVERY_NANOS) {
      lastWarn = now;
      log.warn(
          "remote write to {} failed, retrying {} samples in {} ms: {}",
          settings.name(),
          n,
          sleepMs,
          problem);
    }
  }
}
