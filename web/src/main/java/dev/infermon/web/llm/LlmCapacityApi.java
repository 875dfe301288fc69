package dev.infermon.web.llm;

import dev.infermon.llm.capacity.CapacityJson;
import dev.infermon.llm.capacity.CapacityRequest;
import dev.infermon.llm.capacity.CapacityService;
import dev.infermon.web.api.ApiException;
import dev.infermon.web.api.Envelope;
import dev.infermon.web.api.Params;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Router;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * {@code GET /api/v1/llm/capacity?model=&pod=&lookback=&end=} (docs/http-api.md): capacity headroom
 * per model and pod, an adapter over the llm module's {@link CapacityService}, which decides the
 * defaults. A bad parameter is 400 {@code bad_data} naming it; 503 while the storage is not ready.
 * Thread-safe.
 */
public final class LlmCapacityApi {
  private final Supplier<CapacityService> capacity;

  /**
   * @param capacity null while the storage is not ready
   */
  public LlmCapacityApi(Supplier<CapacityService> capacity) {
    this.capacity = capacity;
  }

  /** Adds the route. */
  public void register(Router router) {
    router.add("/api/v1/llm/capacity", LlmRoutes.api(this::capacity), "GET");
  }

  private void capacity(Exchange ex) throws IOException, BodyTooLargeException {
    CapacityRequest r =
        new CapacityRequest(
            Optional.of(ex.param("model")),
            Optional.of(ex.param("pod")),
            optional(ex, "lookback", Params::duration),
            optional(ex, "end", Params::time));
    Object tree = CapacityJson.tree(LlmRoutes.ready(capacity).estimate(r));
    Envelope.success(ex, g -> LlmJson.tree(g, tree));
  }

  private static OptionalLong optional(Exchange ex, String name, ToLongFunction<String> parse)
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
