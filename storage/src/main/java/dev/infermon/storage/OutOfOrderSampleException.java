package dev.infermon.storage;

/** Rejects a sample older than the series' newest sample (Prometheus's ErrOutOfOrderSample). */
public final class OutOfOrderSampleException extends StorageException {
  private static final long serialVersionUID = 1L;

  /** The message Prometheus uses for this error, so API clients and logs read the same. */
  public static final String MESSAGE = "out of order sample";

  public OutOfOrderSampleException(String detail) {
    super(detail == null || detail.isEmpty() ? MESSAGE : MESSAGE + ": " + detail);
  }
}
