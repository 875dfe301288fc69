package dev.infermon.remote.query;

import dev.infermon.promql.QueryException;

/**
 * The remote query API could not answer: a network error, a timeout of the HTTP request, a response
 * that is not the Prometheus API's JSON, or an {@code unavailable} / {@code internal} error from
 * it. Callers show it as "the cluster is unreachable", not as a wrong query.
 */
public final class RemoteUnavailableException extends QueryException {
  private static final long serialVersionUID = 1L;

  public RemoteUnavailableException(String message) {
    super(message);
  }
}
