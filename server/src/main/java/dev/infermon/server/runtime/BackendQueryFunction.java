package dev.infermon.server.runtime;

import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.Printer;
import dev.infermon.promql.value.Sample;
import dev.infermon.rules.QueryFunction;
import java.util.List;

/**
 * Rules querying through a {@link QueryBackend} (remote mode: the remote Prometheus-compatible
 * API), as {@link dev.infermon.rules.EngineQueryFunction} does over the embedded engine: the
 * expression is printed back to PromQL, a vector is returned as is, a scalar as one sample.
 * Thread-safe as the backend is.
 */
final class BackendQueryFunction implements QueryFunction {
  private final QueryBackend backend;

  BackendQueryFunction(QueryBackend backend) {
    this.backend = backend;
  }

  @Override
  public List<Sample> query(Expr expr, long timeMs) {
    return QueryFunction.samples(backend.instantQuery(Printer.print(expr), timeMs));
  }
}
