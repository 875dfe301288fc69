package dev.infermon.web.http;

/** A request body longer than the configured limit; answered with 413. */
public final class BodyTooLargeException extends Exception {
  private static final long serialVersionUID = 1L;

  private final long limit;

  public BodyTooLargeException(long limit) {
    super("request body too large: the limit is " + limit + " bytes");
    this.limit = limit;
  }

  public long limit() {
    return limit;
  }
}
