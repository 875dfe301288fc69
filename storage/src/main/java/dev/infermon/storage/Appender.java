package dev.infermon.storage;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;

/**
 * A write transaction. Samples appended are invisible to queries until {@link #commit()}; {@link
 * #rollback()} discards them. After either, the appender must not be used again.
 *
 * <p>Threading: an appender is used by one thread at a time. Different appenders of one storage may
 * be used concurrently from different threads.
 *
 * <p>Errors: a rejected sample throws a named {@link StorageException} subclass ({@link
 * OutOfOrderSampleException}, {@link DuplicateSampleException}, {@link OutOfBoundsException} and
 * its kind {@link TooFarInFutureException}); the sample is not added, the transaction stays usable,
 * and the caller decides whether to go on (the scrape loop counts and continues, as Prometheus
 * does). A failure of {@code commit} itself throws {@link StorageException} ({@link
 * StorageUnavailableException} when the cause is I/O, such as a full disk, and a later commit may
 * succeed); nothing of the transaction is visible, the transaction is rolled back, and a {@link
 * #rollback()} after it does nothing, so a caller may roll back in its error handling either way.
 */
public interface Appender {
  /**
   * Appends a sample.
   *
   * @param ref a reference returned by an earlier append for the same labels, or 0 when unknown; a
   *     stale or wrong reference is tolerated (the labels decide)
   * @param labels the series' labels, sorted and non-empty
   * @param timestampMs the sample time in milliseconds
   * @param value the value; {@link dev.infermon.model.value.StaleNaN} marks the series stale
   * @return a reference to the series, valid for later appends to the same storage
   */
  long append(long ref, Labels labels, long timestampMs, double value);

  /**
   * The storage's own instance of the labels of series {@code ref} when they equal {@code labels},
   * otherwise {@code labels} itself. A caller that keeps a label set per series (a scrape cache)
   * can hold this one instead of a second copy; passing it back to {@link #append} is also the
   * cheapest way to name the series. Storages that keep no label sets return {@code labels}.
   */
  default Labels storedLabels(long ref, Labels labels) {
    return labels;
  }

  /** Appends a sample without a cached reference. */
  default long append(Labels labels, long timestampMs, double value) {
    return append(0, labels, timestampMs, value);
  }

  /**
   * Records metadata for the family of this series; applied on commit. Storages that do not keep
   * metadata ignore it.
   */
  default void updateMetadata(Labels labels, Metadata metadata) {}

  /**
   * Makes the appended samples durable per the storage's policy, then visible. Each series' samples
   * of the transaction become visible together; a query running during the commit may see some
   * series of the transaction and not yet others (there is no cross-series isolation, unlike
   * Prometheus's head isolation: see docs/rationale.md).
   */
  void commit();

  /** Discards everything appended in this transaction; does nothing after a failed commit. */
  void rollback();
}
