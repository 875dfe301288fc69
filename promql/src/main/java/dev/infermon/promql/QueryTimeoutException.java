package dev.infermon.promql;

/** The query ran longer than the engine's timeout (Prometheus's ErrQueryTimeout). */
public final class QueryTimeoutException extends QueryException {
  private static final long serialVersionUID = 1L;

  public QueryTimeoutException(String where) {
    super("query timed out in " + where);
  }
}
