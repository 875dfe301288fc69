package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Finding;
import dev.infermon.lint.LintOptions;
import dev.infermon.lint.LintQuery;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.parser.PromqlParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Runs every query check on expressions against a {@link Reference}. Stateless apart from its
 * settings; thread-safe.
 */
public final class Linter {
  private final Reference ref;
  private final LintOptions options;

  public Linter(Reference ref, LintOptions options) {
    if (ref == null || options == null) {
      throw new IllegalArgumentException("reference and options are required");
    }
    this.ref = ref;
    this.options = options;
  }

  public Reference reference() {
    return ref;
  }

  public LintOptions options() {
    return options;
  }

  /**
   * The findings of one query, in check order.
   *
   * @param recorded metric names recorded by the rules under check: never "unknown"
   */
  public List<Finding> check(LintQuery q, Set<String> recorded) {
    List<Finding> out = new ArrayList<>();
    Expr e;
    try {
      e = PromqlParser.parse(q.expr(), PromqlParser.Options.PROMETHEUS_DEFAULTS);
    } catch (ParseException pe) {
      out.add(
          Finding.of(
              CheckId.PARSE_ERROR,
              q.at(pe.offset()),
              "the expression does not parse: " + pe.detail(),
              "",
              pe.token()));
      return out;
    }
    QueryScope s = new QueryScope(q, e, ref, options, recorded, out);
    NameCheck.run(s);
    LabelCheck.run(s);
    FunctionChecks.run(s);
    AggregationChecks.run(s);
    LabelFlow.run(s);
    IntentChecks.run(s);
    ThresholdCheck.run(s);
    return out;
  }
}
