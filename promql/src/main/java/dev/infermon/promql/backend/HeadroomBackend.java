package dev.infermon.promql.backend;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Holds the heap's headroom ({@link HeapHeadroom}) open around every evaluation and series lookup
 * of the delegate: what allocates is below the results cache, so an answer served from the cache
 * does not widen the heap. Thread-safe as the delegate and the headroom are.
 */
final class HeadroomBackend extends ForwardingBackend {
  private final HeapHeadroom headroom;

  HeadroomBackend(QueryBackend delegate, HeapHeadroom headroom) {
    super(delegate);
    this.headroom = headroom;
  }

  private <T> T within(Supplier<T> evaluation) {
    headroom.enter();
    try {
      return evaluation.get();
    } finally {
      headroom.exit();
    }
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs) {
    return within(() -> delegate.instantQuery(query, timeMs));
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    return within(() -> delegate.rangeQuery(query, startMs, endMs, stepMs));
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs, Duration timeout) {
    return within(() -> delegate.instantQuery(query, timeMs, timeout));
  }

  @Override
  public QueryResult rangeQuery(
      String query, long startMs, long endMs, long stepMs, Duration timeout) {
    return within(() -> delegate.rangeQuery(query, startMs, endMs, stepMs, timeout));
  }

  @Override
  public List<Labels> series(List<String> selectors, long startMs, long endMs) {
    return within(() -> delegate.series(selectors, startMs, endMs));
  }
}
