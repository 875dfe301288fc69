package dev.infermon.promql;

/**
 * A range query asks for more points per series than Prometheus's limit of 11,000. A caller mistake
 * in Prometheus's API ({@code bad_data}), named so the API can map it.
 */
public final class TooManyPointsException extends QueryException {
  private static final long serialVersionUID = 1L;

  public TooManyPointsException() {
    super(
        "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query"
            + " resolution (?step=XX)");
  }
}
