package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.Vector;
import dev.infermon.storage.Queryable;
import java.util.List;

/**
 * {@link QueryFunction} over the embedded engine (Prometheus's {@code EngineQueryFunc}): vectors as
 * they are, scalars as one sample, anything else an error. Thread-safe.
 */
public final class EngineQueryFunction implements QueryFunction {
  private final Engine engine;
  private final Queryable queryable;

  public EngineQueryFunction(Engine engine, Queryable queryable) {
    if (engine == null || queryable == null) {
      throw new IllegalArgumentException("engine and queryable must not be null");
    }
    this.engine = engine;
    this.queryable = queryable;
  }

  @Override
  public List<Sample> query(Expr expr, long timeMs) {
    QueryResult r = engine.instantQuery(queryable, expr, timeMs);
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
