package dev.infermon.promql;

/**
 * The query itself is wrong: it does not parse, or its parameters are invalid (Prometheus's {@code
 * bad_data}). The message says what and where.
 */
public final class BadQueryException extends QueryException {
  private static final long serialVersionUID = 1L;

  public BadQueryException(String message) {
    super(message);
  }
}
