package dev.infermon.promql;

/**
 * A query failed while it was evaluated. Subclasses name the causes a caller handles differently
 * (the HTTP API maps them to Prometheus's error types); this class itself is an execution error
 * such as a many-to-many matching or a duplicate label set, with Prometheus's message.
 */
public class QueryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public QueryException(String message) {
    super(message);
  }
}
