package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.Vector;
import java.util.List;

/**
 * How rules query (Prometheus's {@code rules.QueryFunc}): an instant query whose result is a
 * vector; a scalar is one sample without labels. Rules see this function, not the engine, so they
 * run against any engine or backend.
 *
 * <p>Threading: called from rule-evaluation threads, possibly concurrently for different groups;
 * implementations must be thread-safe. Errors are thrown as runtime exceptions whose message
 * becomes the rule's {@code lastError}.
 */
@FunctionalInterface
public interface QueryFunction {
  List<Sample> query(Expr expr, long timeMs);

  /**
   * An instant query's result as a rule sees it, whatever answered it: a vector as is, a scalar as
   * one sample without labels.
   *
   * @throws QueryException for any other type of result
   */
  static List<Sample> samples(QueryResult r) {
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
