package dev.infermon.llm.dashboard;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.QueryResult;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * A backend that records the start and end of every range query it passes on. Thread-safe; extended
 * by tests that hold queries back.
 */
public class RecordingBackend implements QueryBackend {
  private final QueryBackend backend;
  private final List<long[]> ranges;
  private final LongSupplier immutableBefore; // null: the backend's own

  /** Records into {@code ranges}, synchronized on it. */
  public RecordingBackend(QueryBackend backend, List<long[]> ranges) {
    this(backend, ranges, null);
  }

  /** As above, stating {@code immutableBefore} as its bound of final steps. */
  public RecordingBackend(QueryBackend backend, List<long[]> ranges, LongSupplier immutableBefore) {
    this.backend = backend;
    this.ranges = ranges;
    this.immutableBefore = immutableBefore;
  }

  @Override
  public OptionalLong immutableBefore() {
    return immutableBefore == null
        ? backend.immutableBefore()
        : OptionalLong.of(immutableBefore.getAsLong());
  }

  @Override
  public QueryResult instantQuery(String query, long timeMs) {
    return backend.instantQuery(query, timeMs);
  }

  @Override
  public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
    synchronized (ranges) {
      ranges.add(new long[] {startMs, endMs});
    }
    return backend.rangeQuery(query, startMs, endMs, stepMs);
  }

  @Override
  public List<Labels> series(List<String> selectors, long startMs, long endMs) {
    return backend.series(selectors, startMs, endMs);
  }

  @Override
  public List<String> labelNames(List<String> selectors, long startMs, long endMs) {
    return backend.labelNames(selectors, startMs, endMs);
  }

  @Override
  public List<String> labelValues(String name, List<String> selectors, long startMs, long endMs) {
    return backend.labelValues(name, selectors, startMs, endMs);
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    return backend.metadata(metric);
  }
}
