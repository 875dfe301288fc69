package dev.infermon.benchmarks.dashboard;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.backend.ForwardingBackend;
import dev.infermon.promql.value.QueryResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The query stack as its callers (the dashboard service, the HTTP API) see it, with every query and
 * series lookup asked of it recorded, in the order first asked, each distinct one once: what a
 * dashboard load asks, whether or not the stack below joins, caches or evaluates it.
 */
final class RecordingBackend extends ForwardingBackend {
  private final Set<DashboardQueryLog.Asked> asked = new LinkedHashSet<>();

  RecordingBackend(QueryBackend delegate) {
    super(delegate);
  }

  /** What was asked so far, de-duplicated, in the order first asked. */
  synchronized List<DashboardQueryLog.Asked> asked() {
    return List.copyOf(new ArrayList<>(asked));
  }

  private synchronized void record(DashboardQueryLog.Kind kind, String q, long s, long e, long st) {
    asked.add(new DashboardQueryLog.Asked(kind, q, s, e, st));
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs) {
    record(DashboardQueryLog.Kind.INSTANT, query, timeMs, timeMs, 0);
    return delegate.instantQuery(query, timeMs);
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs, Duration timeout) {
    record(DashboardQueryLog.Kind.INSTANT, query, timeMs, timeMs, 0);
    return delegate.instantQuery(query, timeMs, timeout);
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    record(DashboardQueryLog.Kind.RANGE, query, startMs, endMs, stepMs);
    return delegate.rangeQuery(query, startMs, endMs, stepMs);
  }

  @Override
  public QueryResult rangeQuery(
      String query, long startMs, long endMs, long stepMs, Duration timeout) {
    record(DashboardQueryLog.Kind.RANGE, query, startMs, endMs, stepMs);
    return delegate.rangeQuery(query, startMs, endMs, stepMs, timeout);
  }

  @Override
  public CompletableFuture<QueryResult> rangeQueryAsync(
      String query, long startMs, long endMs, long stepMs) {
    record(DashboardQueryLog.Kind.RANGE, query, startMs, endMs, stepMs);
    return delegate.rangeQueryAsync(query, startMs, endMs, stepMs);
  }

  @Override
  public List<Labels> series(List<String> selectors, long startMs, long endMs) {
    record(DashboardQueryLog.Kind.SERIES, String.join("\n", selectors), startMs, endMs, 0);
    return delegate.series(selectors, startMs, endMs);
  }
}
