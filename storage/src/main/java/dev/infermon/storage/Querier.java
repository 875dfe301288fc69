package dev.infermon.storage;

import dev.infermon.model.labels.Matcher;
import java.util.List;

/**
 * A read view of a storage. While a querier is open the data it can see is not deleted (blocks it
 * reads stay mapped); close it promptly. Queriers are not thread-safe; one query uses one querier.
 */
public interface Querier extends AutoCloseable {
  /**
   * Series that match every matcher and have at least one sample in {@code [mint, maxt]}; their
   * iterators yield only samples in that range.
   *
   * @param sorted whether the series must come in label order
   * @param mint earliest time, inclusive, in milliseconds
   * @param maxt latest time, inclusive, in milliseconds
   * @param matchers at least one matcher; together they must not all match the empty string
   * @throws IllegalArgumentException when no matcher is given or all match the empty string
   */
  SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers);

  /**
   * False only when {@link #select} over {@code [mint, maxt]} certainly returns no series (a block
   * whose time range lies outside it, say), so a caller that combines queriers may skip this one.
   * True when it cannot tell cheaply, which is always correct.
   */
  default boolean mayHaveSamplesIn(long mint, long maxt) {
    return true;
  }

  /**
   * Sorted, distinct values of a label among series that match the matchers (all series when none)
   * and have data in {@code [mint, maxt]}.
   */
  List<String> labelValues(String name, long mint, long maxt, List<Matcher> matchers);

  /** Sorted, distinct label names among series that match the matchers (all when none). */
  List<String> labelNames(long mint, long maxt, List<Matcher> matchers);

  /** Releases what the querier holds. Idempotent. */
  @Override
  void close();
}
