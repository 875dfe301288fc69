package dev.infermon.promql.backend;

import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.storage.AppendWatermark;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A real backend seen through a recorder: every evaluation that reaches it is counted (range
 * queries with their start and end), its bound of final steps is the test's, and it can hold
 * evaluations until the test opens a gate. Thread-safe.
 */
final class CountingBackend extends ForwardingBackend {
  final List<long[]> ranges = new ArrayList<>(); // guarded by itself
  private int instants; // guarded by ranges
  private final LongSupplier bound; // null: cannot tell
  volatile AppendWatermark watermark; // null: the delegate's
  private volatile CountDownLatch gate = new CountDownLatch(0);
  final CountDownLatch entered = new CountDownLatch(1);

  CountingBackend(QueryBackend engine, LongSupplier bound) {
    super(engine);
    this.bound = bound;
  }

  /** Holds every evaluation until {@link #open()}. */
  void close() {
    gate = new CountDownLatch(1);
  }

  void open() {
    gate.countDown();
  }

  int evaluations() {
    synchronized (ranges) {
      return ranges.size() + instants;
    }
  }

  @Override
  public OptionalLong immutableBefore() {
    return bound == null ? OptionalLong.empty() : OptionalLong.of(bound.getAsLong());
  }

  @Override
  public Optional<AppendWatermark> appendWatermark() {
    AppendWatermark w = watermark;
    return w == null ? delegate.appendWatermark() : Optional.of(w);
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs) {
    synchronized (ranges) {
      instants++;
    }
    hold();
    return delegate.instantQuery(query, timeMs);
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    synchronized (ranges) {
      ranges.add(new long[] {startMs, endMs});
    }
    hold();
    return delegate.rangeQuery(query, startMs, endMs, stepMs);
  }

  private void hold() {
    entered.countDown();
    try {
      if (!gate.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never opened the gate");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
