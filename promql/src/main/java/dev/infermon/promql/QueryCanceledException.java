package dev.infermon.promql;

/** The query was canceled by its caller (Prometheus's ErrQueryCanceled). */
public final class QueryCanceledException extends QueryException {
  private static final long serialVersionUID = 1L;

  public QueryCanceledException(String where) {
    super("query was canceled in " + where);
  }
}
