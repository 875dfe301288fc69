package dev.infermon.web.api;

import dev.infermon.llm.BadParameterException;
import dev.infermon.promql.BadQueryException;
import dev.infermon.promql.QueryCanceledException;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.QueryTimeoutException;
import dev.infermon.promql.TooManyPointsException;
import dev.infermon.storage.StorageException;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one error mapping of the web module's JSON APIs, the Prometheus HTTP API and the LLM API
 * alike (docs/http-api.md): whatever a handler throws is answered in the {@link Envelope}, never as
 * a plain-text or HTML page.
 *
 * <table>
 *   <caption>thrown → answer</caption>
 *   <tr><td>{@link ApiException}</td><td>its type and message (a bad parameter names it)</td></tr>
 *   <tr><td>{@link BodyTooLargeException}</td><td>413 {@code bad_data}</td></tr>
 *   <tr><td>{@link BadParameterException} (a service's)</td>
 *       <td>400 {@code bad_data}, {@code invalid parameter "name": ...}</td></tr>
 *   <tr><td>{@link BadQueryException}, {@link TooManyPointsException}, other
 *       {@link IllegalArgumentException} (a caller's mistake)</td><td>400 {@code bad_data}</td></tr>
 *   <tr><td>{@link QueryTimeoutException}</td><td>503 {@code timeout}</td></tr>
 *   <tr><td>{@link QueryCanceledException}</td><td>499 {@code canceled}</td></tr>
 *   <tr><td>other {@link QueryException} (too many samples included)</td>
 *       <td>422 {@code execution}</td></tr>
 *   <tr><td>{@link StorageException}</td><td>500 {@code internal}, logged</td></tr>
 *   <tr><td>{@link IllegalStateException} (a storage not ready or closed under us)</td>
 *       <td>503 {@code unavailable}</td></tr>
 *   <tr><td>anything else</td><td>500 {@code internal}, logged</td></tr>
 * </table>
 *
 * <p>An {@code IOException} (the request's body could not be read: the connection is gone) is left
 * to the server. Stateless.
 */
public final class ApiErrors {
  private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);

  private ApiErrors() {}

  /** {@code handler} with every failure answered in the error envelope. */
  public static Route guard(Route handler) {
    return ex -> {
      try {
        handler.handle(ex);
      } catch (ApiException e) {
        Envelope.error(ex, e);
      } catch (BodyTooLargeException e) {
        Envelope.error(ex, 413, new ApiException(ErrorType.BAD_DATA, e.getMessage()));
      } catch (RuntimeException e) {
        Envelope.error(ex, toApi(e));
      }
    };
  }

  /** The envelope error for {@code e}; an unexpected failure is logged, a named one is not. */
  public static ApiException toApi(RuntimeException e) {
    if (e instanceof ApiException) {
      return (ApiException) e;
    }
    if (e instanceof BadParameterException) {
      return ApiException.invalidParam(((BadParameterException) e).parameter(), e.getMessage());
    }
    if (e instanceof BadQueryException
        || e instanceof TooManyPointsException
        || e instanceof IllegalArgumentException) {
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
      // the storage is not ready, or was closed under us: shutting down
      return new ApiException(ErrorType.UNAVAILABLE, String.valueOf(e.getMessage()));
    }
    log.error("unexpected failure while serving the API", e);
    return new ApiException(ErrorType.INTERNAL, String.valueOf(e.getMessage()));
  }
}
