package dev.infermon.storage;

/** Rejects a sample older than the head accepts (Prometheus's ErrOutOfBounds). */
public final class OutOfBoundsException extends StorageException {
  private static final long serialVersionUID = 1L;

  /** The message Prometheus uses for this error, so API clients and logs read the same. */
  public static final String MESSAGE = "out of bounds";

  public OutOfBoundsException(String detail) {
    super(detail == null || detail.isEmpty() ? MESSAGE : MESSAGE + ": " + detail);
  }
}
