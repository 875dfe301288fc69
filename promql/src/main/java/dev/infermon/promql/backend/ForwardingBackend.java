package dev.infermon.promql.backend;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.storage.AppendWatermark;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A decorator's base: every call passes to the delegate unchanged; a decorator overrides what it
 * changes, so a method added to {@link QueryBackend} later (as {@link #appendWatermark()} was)
 * passes through every decorator without each repeating it. The forms with a caller's timeout pass
 * through in every decorator of this package: a query under the HTTP API's deadline is evaluated
 * whole, by itself, on the caller's thread (a joined evaluation would run under another caller's
 * deadline). Decorators elsewhere (the server's instrumentation, the benchmarks' counters) extend
 * it too.
 */
public abstract class ForwardingBackend implements QueryBackend {
  /** What every call not overridden passes to. */
  protected final QueryBackend delegate;

  /**
   * @throws IllegalArgumentException when {@code delegate} is null
   */
  protected ForwardingBackend(QueryBackend delegate) {
    if (delegate == null) {
      throw new IllegalArgumentException("delegate backend is required");
    }
    this.delegate = delegate;
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs) {
    return delegate.instantQuery(query, timeMs);
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    return delegate.rangeQuery(query, startMs, endMs, stepMs);
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs, Duration timeout) {
    return delegate.instantQuery(query, timeMs, timeout);
  }

  @Override
  public QueryResult rangeQuery(
      String query, long startMs, long endMs, long stepMs, Duration timeout) {
    return delegate.rangeQuery(query, startMs, endMs, stepMs, timeout);
  }

  @Override
  public OptionalLong immutableBefore() {
    return delegate.immutableBefore();
  }

  @Override
  public Optional<AppendWatermark> appendWatermark() {
    return delegate.appendWatermark();
  }

  @Override
  public List<Labels> series(List<String> selectors, long startMs, long endMs) {
    return delegate.series(selectors, startMs, endMs);
  }

  @Override
  public List<String> labelNames(List<String> selectors, long startMs, long endMs) {
    return delegate.labelNames(selectors, startMs, endMs);
  }

  @Override
  public List<String> labelValues(String name, List<String> selectors, long startMs, long endMs) {
    return delegate.labelValues(name, selectors, startMs, endMs);
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    return delegate.metadata(metric);
  }
}
