package dev.infermon.rules;

import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.value.Sample;
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
    return QueryFunction.samples(engine.instantQuery(queryable, expr, timeMs));
  }
}
