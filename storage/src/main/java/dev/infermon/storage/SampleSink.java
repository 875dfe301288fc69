package dev.infermon.storage;

/**
 * A secondary destination of samples behind a {@link Fanout} (remote write, later): it is shown
 * every sample the primary storage accepted, after the primary's commit returned.
 *
 * <p>Contract: {@link #accept} is called on the committing thread, so it must not block (hand the
 * batch to a queue and return) and should not throw. If it throws anyway, the fanout counts the
 * failure and the commit still succeeds: a sink can neither fail nor undo the primary's commit.
 * Calls may come from several committing threads at once; the sink must be thread-safe. Batches
 * from one appender arrive in commit order; batches from different appenders are not ordered.
 */
@FunctionalInterface
public interface SampleSink {
  /**
   * Receives the samples of one committed transaction. The batch is immutable and the fanout never
   * touches it again, so it may be queued as is (every sink gets the same instance).
   */
  void accept(CommittedBatch batch);
}
