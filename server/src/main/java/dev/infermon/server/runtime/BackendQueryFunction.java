package dev.infermon.server.runtime;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.Printer;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.Vector;
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
    QueryResult r = backend.instantQuery(Printer.print(expr), timeMs);
    if (r.value() instanceof Vector) {
      return ((Vector) r.value()).samples();
    }
    if (r.value() instanceof Scalar) {
      Scalar s = (Scalar) r.value();
      return List.of(new Sample(Labels.EMPTY, s.timestampMs(), s.value()));
    }
    throw new QueryException("rule result is not a vector or scalar");
  }
}
