package dev.infermon.storage;

/**
 * Rejects a sample whose timestamp lies beyond the storage's future window (now plus a few
 * minutes). A kind of {@link OutOfBoundsException}, as in Prometheus, whose scrape loop and
 * remote-write handler refuse such samples with {@code ErrOutOfBounds} ("timestamp is too far in
 * the future"); callers that count rejections by reason catch it first. Accepting such a sample
 * would move the head's time range into the future and make every present sample out of bounds.
 */
public final class TooFarInFutureException extends OutOfBoundsException {
  private static final long serialVersionUID = 1L;

  /** Prometheus's wording, after {@link OutOfBoundsException#MESSAGE}. */
  public static final String MESSAGE = "timestamp is too far in the future";

  /**
   * @param detail the series, the sample's time and the limit
   */
  public TooFarInFutureException(String detail) {
    super(detail == null || detail.isEmpty() ? MESSAGE : MESSAGE + ": " + detail);
  }
}
