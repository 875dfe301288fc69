package dev.infermon.rules;

import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.value.Sample;
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
}
