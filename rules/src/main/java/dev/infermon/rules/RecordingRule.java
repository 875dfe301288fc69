package dev.infermon.rules;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.value.Sample;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Records an expression's result under a new name (Prometheus's {@code recording.go}). */
final class RecordingRule extends Rule {
  RecordingRule(String name, Expr expr, Labels labels) {
    super(name, expr, labels);
  }

  @Override
  List<Sample> eval(long ts, long queryOffsetMs, EvalContext ctx, int limit) {
    List<Sample> vector = ctx.query().query(expr, ts - queryOffsetMs);
    List<Sample> out = new ArrayList<>(vector.size());
    Set<Labels> seen = new HashSet<>();
    for (Sample s : vector) {
      Labels.Builder b = s.labels().toBuilder().set(Labels.METRIC_NAME, name);
      labels.forEach(b::set);
      Labels l = b.build();
      if (!seen.add(l)) {
        throw new IllegalStateException(
            "vector contains metrics with the same labelset after applying rule labels");
      }
      out.add(new Sample(l, s.timestampMs(), s.value()));
    }
    if (limit > 0 && out.size() > limit) {
      throw new IllegalStateException(
          "exceeded limit of " + limit + " with " + out.size() + " series");
    }
    return out;
  }
}
