package dev.infermon.promql;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.value.QueryResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the LLM layer and the HTTP API ask of a Prometheus-compatible store: queries, series, labels
 * and metadata. Implemented by the embedded engine ({@link EmbeddedQueryBackend}) and, later, by a
 * client of a remote Prometheus-compatible API; so it speaks PromQL text and plain values ({@link
 * dev.infermon.promql.value}), never engine internals.
 *
 * <p>Times are milliseconds since the epoch; ranges are closed. Implementations are thread-safe.
 *
 * <p>Errors: {@link BadQueryException} for a query or matcher that does not parse or parameters
 * that are invalid; {@link QueryTimeoutException}, {@link TooManySamplesException}, {@link
 * TooManyPointsException} or {@link QueryException} when evaluation fails; non-fatal findings are
 * the result's annotations.
 */
public interface QueryBackend {
  /** Evaluates a PromQL expression at one time. */
  QueryResult instantQuery(String query, long timeMs);

  /** Evaluates a PromQL expression at {@code start, start+step, ..., end}; a matrix result. */
  QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs);

  /**
   * As {@link #instantQuery(String, long)}, in at most {@code timeout} (or the backend's own limit
   * when that is shorter): what the HTTP API's query gate left of a query's timeout after its wait
   * for a slot. The default ignores it, for a backend bounded otherwise (a remote one by its HTTP
   * client's timeout).
   *
   * @throws QueryTimeoutException when evaluation runs out of time
   */
  default QueryResult instantQuery(String query, long timeMs, Duration timeout) {
    return instantQuery(query, timeMs);
  }

  /** As {@link #rangeQuery(String, long, long, long)}, in at most {@code timeout}. */
  default QueryResult rangeQuery(
      String query, long startMs, long endMs, long stepMs, Duration timeout) {
    return rangeQuery(query, startMs, endMs, stepMs);
  }

  /**
   * Label sets of the series that match any of the selectors ({@code match[]}) and have samples in
   * the range, sorted and distinct.
   */
  List<Labels> series(List<String> selectors, long startMs, long endMs);

  /** Sorted label names of the matching series (all series when no selector is given). */
  List<String> labelNames(List<String> selectors, long startMs, long endMs);

  /** Sorted values of a label among the matching series (all series when none is given). */
  List<String> labelValues(String name, List<String> selectors, long startMs, long endMs);

  /** Metadata per metric family; only {@code metric}'s when it is not null. */
  Map<String, List<Metadata>> metadata(String metric);
}
