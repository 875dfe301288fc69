package dev.infermon.web.llm;

import dev.infermon.web.api.ApiErrors;
import dev.infermon.web.api.ApiException;
import dev.infermon.web.api.ErrorType;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Route;
import java.io.IOException;
import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * What every {@code /api/v1/llm/*} route shares: the web module's one error mapping ({@link
 * ApiErrors}: a bad parameter is 400 {@code bad_data}, a query timeout 503 {@code timeout}, all in
 * the JSON envelope), and "not ready" for a service the storage has not bound yet (503 {@code
 * unavailable}, JSON, where the Prometheus endpoints answer plain text as Prometheus does).
 * Stateless.
 */
final class LlmRoutes {
  static final String NOT_READY = "the storage is not ready";

  private LlmRoutes() {}

  /** {@code handler} under the shared error mapping. */
  static Route api(Route handler) {
    return ApiErrors.guard(
        ex -> {
          try {
            handler.handle(ex);
          } catch (BodyUnreadable e) {
            if (e.getCause() instanceof BodyTooLargeException) {
              throw (BodyTooLargeException) e.getCause();
            }
            throw (IOException) e.getCause();
          }
        });
  }

  /** The service, or 503 {@code unavailable} while the storage is not ready. */
  static <T> T ready(Supplier<T> service) {
    T s = service.get();
    if (s == null) {
      throw new ApiException(ErrorType.UNAVAILABLE, NOT_READY);
    }
    return s;
  }

  /** The request's parameters; a body that cannot be read surfaces from {@link #api}. */
  static DashboardParams.Source source(Exchange ex) {
    return name -> {
      try {
        return ex.params(name);
      } catch (IOException | BodyTooLargeException e) {
        throw new BodyUnreadable(e);
      }
    };
  }

  /** Carries a body read failure out of a parameter lookup. */
  private static final class BodyUnreadable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BodyUnreadable(Exception cause) {
      super(cause);
    }
  }

  /** A time or duration parameter, parsed; absent when empty (the service's default applies). */
  static OptionalLong optional(Exchange ex, String name, ToLongFunction<String> parse)
      throws IOException, BodyTooLargeException {
    String v = ex.param(name);
    if (v.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(parse.applyAsLong(v));
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam(name, e.getMessage());
    }
  }
}
