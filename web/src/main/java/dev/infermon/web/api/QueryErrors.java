package dev.infermon.web.api;

import dev.infermon.promql.BadQueryException;
import dev.infermon.promql.QueryCanceledException;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.QueryTimeoutException;
import dev.infermon.promql.TooManyPointsException;
import dev.infermon.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The query backend's named errors as Prometheus's error types, for every API that queries: the
 * Prometheus HTTP API and the LLM dashboard API answer a failed query alike (docs/http-api.md).
 */
public final class QueryErrors {
  private static final Logger log = LoggerFactory.getLogger(QueryErrors.class);

  private QueryErrors() {}

  /** The envelope error for {@code e}; an unexpected failure is logged, a named one is not. */
  public static ApiException toApi(RuntimeException e) {
    if (e instanceof BadQueryException || e instanceof TooManyPointsException) {
      return new ApiException(ErrorType.BAD_DATA, e.getMessage());
    }
    if (e instanceof QueryTimeoutException) {
      return new ApiException(ErrorType.TIMEOUT, e.getMessage());
    }
    if (e instanceof QueryCanceledException) {
      return new ApiException(ErrorType.CANCELED, e.getMessage());
    }
    if (e instanceof QueryException) {
      // includes TooManySamplesException: Prometheus answers it as an execution error
      return new ApiException(ErrorType.EXECUTION, e.getMessage());
    }
    if (e instanceof StorageException) {
      log.warn("storage failure while serving the API", e);
      return new ApiException(ErrorType.INTERNAL, e.getMessage());
    }
    if (e instanceof IllegalStateException) {
      // a storage closed under us: shutting down
      return new ApiException(ErrorType.UNAVAILABLE, String.valueOf(e.getMessage()));
    }
    log.error("unexpected failure while serving the API", e);
    return new ApiException(ErrorType.INTERNAL, String.valueOf(e.getMessage()));
  }
}
