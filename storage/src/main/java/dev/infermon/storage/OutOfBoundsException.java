package dev.infermon.storage;

/**
 * Rejects a sample outside the time range the head accepts (Prometheus's ErrOutOfBounds): older
 * than its appendable window, or, as {@link TooFarInFutureException}, beyond its future window.
 */
public sealed class OutOfBoundsException extends StorageException permits TooFarInFutureException {
  private static final long serialVersionUID = 1L;

  /** The message Prometheus uses for this error, so API clients and logs read the same. */
  public static final String MESSAGE = "out of bounds";

  public OutOfBoundsException(String detail) {
    super(detail == null || detail.isEmpty() ? MESSAGE : MESSAGE + ": " + detail);
  }
}
