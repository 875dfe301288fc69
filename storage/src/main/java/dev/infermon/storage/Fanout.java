package dev.infermon.storage;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A storage that writes to a primary storage and shows every committed sample to secondary {@link
 * SampleSink}s (remote write). Reads, metadata and lifecycle are the primary's.
 *
 * <p>Order of a commit: the primary commits first; only if that returns are the accepted samples
 * handed to each sink, in the order the sinks were given. A sink that throws is counted ({@link
 * #sinkFailures()}) and skipped; the commit has already happened and is reported as successful. A
 * sample the primary rejected at append time (out of order, duplicate, out of bounds) is not shown
 * to sinks. A rolled-back transaction shows nothing.
 *
 * <p>Thread-safe as its primary is; appenders follow {@link Appender}'s one-thread rule. {@link
 * #close()} closes the primary only: sinks belong to whoever created them.
 */
public final class Fanout implements Storage {
  private final Storage primary;
  private final List<SampleSink> sinks;
  private final AtomicLong sinkFailures = new AtomicLong();

  private Fanout(Storage primary, List<SampleSink> sinks) {
    this.primary = primary;
    this.sinks = sinks;
  }

  /**
   * A fanout from {@code primary} to {@code sinks}.
   *
   * @throws IllegalArgumentException when the primary or a sink is null
   */
  public static Fanout of(Storage primary, List<? extends SampleSink> sinks) {
    if (primary == null) {
      throw new IllegalArgumentException("null primary storage");
    }
    for (SampleSink s : sinks) {
      if (s == null) {
        throw new IllegalArgumentException("null sink in " + sinks);
      }
    }
    return new Fanout(primary, List.copyOf(sinks));
  }

  /** How many times a sink threw from {@link SampleSink#accept}. */
  public long sinkFailures() {
    return sinkFailures.get();
  }

  @Override
  public Appender appender() {
    Appender a = primary.appender();
    return sinks.isEmpty() ? a : new FanoutAppender(a);
  }

  @Override
  public Querier querier() {
    return primary.querier();
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    return primary.metadata(metric);
  }

  @Override
  public long startTime() {
    return primary.startTime();
  }

  @Override
  public void close() {
    primary.close();
  }

  private final class FanoutAppender implements Appender {
    private final Appender primaryAppender;
    private CommittedBatch.Builder batch = new CommittedBatch.Builder();

    FanoutAppender(Appender primaryAppender) {
      this.primaryAppender = primaryAppender;
    }

    @Override
    public long append(long ref, Labels labels, long timestampMs, double value) {
      long r = primaryAppender.append(ref, labels, timestampMs, value);
      // Recorded only once the primary accepted it: a rejected sample threw above.
      batch.add(labels, timestampMs, value);
      return r;
    }

    @Override
    public Labels storedLabels(long ref, Labels labels) {
      return primaryAppender.storedLabels(ref, labels);
    }

    @Override
    public void updateMetadata(Labels labels, Metadata metadata) {
      primaryAppender.updateMetadata(labels, metadata);
      batch.addMetadata(labels, metadata);
    }

    @Override
    public void commit() {
      CommittedBatch.Builder b = batch;
      batch = new CommittedBatch.Builder();
      primaryAppender.commit();
      if (b.isEmpty()) {
        return;
      }
      CommittedBatch committed = b.build();
      for (SampleSink sink : sinks) {
        try {
          sink.accept(committed);
        } catch (RuntimeException e) {
          // The sink's contract forbids this; the commit stands regardless.
          sinkFailures.incrementAndGet();
        }
      }
    }

    @Override
    public void rollback() {
      batch = new CommittedBatch.Builder();
      primaryAppender.rollback();
    }
  }
}
