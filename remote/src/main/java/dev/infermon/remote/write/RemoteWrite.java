package dev.infermon.remote.write;

import dev.infermon.config.remote.RemoteWriteConfig;
import dev.infermon.model.labels.Labels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every {@code remote_write} endpoint of a configuration, one {@link QueueManager} each; the queues
 * are the sinks to put behind the storage fanout. Immutable once started; thread-safe.
 */
public final class RemoteWrite implements AutoCloseable {
  private final List<QueueManager> queues;

  private RemoteWrite(List<QueueManager> queues) {
    this.queues = List.copyOf(queues);
  }

  /** No endpoints: nothing is sent. */
  public static RemoteWrite none() {
    return new RemoteWrite(List.of());
  }

  /**
   * Starts a queue per endpoint. If one cannot start, those already started are closed.
   *
   * @throws IllegalArgumentException when two endpoints share a name or one's settings are invalid
   */
  public static RemoteWrite start(
      List<RemoteWriteConfig> endpoints, Labels externalLabels, String userAgent) {
    List<QueueManager> started = new ArrayList<>();
    Set<String> names = new HashSet<>();
    try {
      for (RemoteWriteConfig c : endpoints) {
        QueueManager q = QueueManager.start(c, externalLabels, userAgent);
        started.add(q);
        if (!names.add(q.name())) {
          throw new IllegalArgumentException(
              "duplicate remote write configs are not allowed, found duplicate for name: "
                  + q.name());
        }
      }
    } catch (RuntimeException e) {
      for (QueueManager q : started) {
        q.close(Duration.ZERO);
      }
      throw e;
    }
    return new RemoteWrite(started);
  }

  /** The queues, in configuration order. */
  public List<QueueManager> queues() {
    return queues;
  }

  public boolean isEmpty() {
    return queues.isEmpty();
  }

  /** Flushes every queue for up to {@code flushDeadline} in total, then stops them. */
  public void close(Duration flushDeadline) {
    long until = System.nanoTime() + flushDeadline.toNanos();
    for (QueueManager q : queues) {
      q.close(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
    }
  }

  @Override
  public void close() {
    close(QueueManager.DEFAULT_FLUSH_DEADLINE);
  }

  @Override
  public String toString() {
    return "RemoteWrite" + QueueManager.names(queues);
  }
}
