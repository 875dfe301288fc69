package dev.infermon.web.api;

import dev.infermon.promql.QueryBackend;
import java.util.function.Supplier;

/** The late-bound query backend; asking before the storage is ready is {@code unavailable}. */
final class Backends {
  private final Supplier<QueryBackend> queries;

  Backends(Supplier<QueryBackend> queries) {
    this.queries = queries;
  }

  boolean ready() {
    return queries.get() != null;
  }

  QueryBackend queries() {
    QueryBackend b = queries.get();
    if (b == null) {
      throw new ApiException(ErrorType.UNAVAILABLE, "the storage is not ready");
    }
    return b;
  }
}
