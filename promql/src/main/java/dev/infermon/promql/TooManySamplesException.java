package dev.infermon.promql;

/**
 * The query would hold more samples in memory than the engine allows (Prometheus's
 * ErrTooManySamples).
 */
public final class TooManySamplesException extends QueryException {
  private static final long serialVersionUID = 1L;

  public TooManySamplesException(String where) {
    super("query processing would load too many samples into memory in " + where);
  }
}
