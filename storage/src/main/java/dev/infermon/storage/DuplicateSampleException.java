package dev.infermon.storage;

/**
 * Rejects a second, different value at the series' newest timestamp (Prometheus's
 * ErrDuplicateSampleForTimestamp).
 */
public final class DuplicateSampleException extends StorageException {
  private static final long serialVersionUID = 1L;

  /** The message Prometheus uses for this error, so API clients and logs read the same. */
  public static final String MESSAGE = "duplicate sample for timestamp";

  public DuplicateSampleException(String detail) {
    super(detail == null || detail.isEmpty() ? MESSAGE : MESSAGE + ": " + detail);
  }
}
