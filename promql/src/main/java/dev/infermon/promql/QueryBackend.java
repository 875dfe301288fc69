package dev.infermon.promql;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.storage.AppendWatermark;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * What the LLM layer, the HTTP API and rules (through the server's binding) ask of a
 * Prometheus-compatible store: queries, series, labels and metadata. Implemented by the embedded
 * engine ({@link EmbeddedQueryBackend}) and by the client of a remote Prometheus-compatible API
 * ({@code remote}'s {@code RemoteQueryBackend}); so it speaks PromQL text and plain values ({@link
 * dev.infermon.promql.value}), never engine internals. The scheduling decorators of {@link
 * dev.infermon.promql.backend} (joining, a pool, a results cache) implement it too; the server
 * stacks them once over the evaluating backend.
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
   * As {@link #rangeQuery(String, long, long, long)}, evaluated where the backend evaluates in
   * parallel ({@link dev.infermon.promql.backend.ParallelBackend}'s pool); the default evaluates on
   * the caller's thread and returns a completed future. The future fails with the exception the
   * evaluation threw.
   */
  default CompletableFuture<QueryResult> rangeQueryAsync(
      String query, long startMs, long endMs, long stepMs) {
    try {
      return CompletableFuture.completedFuture(rangeQuery(query, startMs, endMs, stepMs));
    } catch (RuntimeException | Error e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * The time before which no sample can be added any more, read now: the value of a range query at
   * a step before it is final (a results cache may keep it). Empty when the backend cannot tell
   * (the default: a remote store, or a storage without an appendable window). Decorators pass their
   * delegate's on.
   */
  default OptionalLong immutableBefore() {
    return OptionalLong.empty();
  }

  /**
   * What the storage committed since a mark ({@link AppendWatermark}): a results cache keeps the
   * steps before the lowest sample committed since it read them, not only those before {@link
   * #immutableBefore()}. Empty when the backend cannot tell (the default). Decorators pass their
   * delegate's on.
   */
  default Optional<AppendWatermark> appendWatermark() {
    return Optional.empty();
  }

  /**
   * A mark of {@link #appendWatermark()} to read before reading, for a reader outside the storage's
   * layer (the LLM layer keeps its inventory with it); empty when the backend cannot tell. Built on
   * {@link #appendWatermark()}, so decorators need not forward it.
   */
  default OptionalLong commitMark() {
    Optional<AppendWatermark> w = appendWatermark();
    return w.isPresent() ? OptionalLong.of(w.get().mark()) : OptionalLong.empty();
  }

  /**
   * {@link AppendWatermark#lowestSince} of a {@link #commitMark()}: the lowest sample timestamp
   * committed since it was read, {@link Long#MAX_VALUE} when none; empty when the backend cannot
   * tell or no longer keeps track that far back.
   */
  default OptionalLong lowestCommittedSince(long mark) {
    Optional<AppendWatermark> w = appendWatermark();
    return w.isPresent() ? w.get().lowestSince(mark) : OptionalLong.empty();
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
