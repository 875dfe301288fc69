package dev.infermon.promql.differential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.AggregateOp;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Children;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.UnaryExpr;
import dev.infermon.promql.parser.VectorMatching;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The differential query table covers what it claims, without running a Prometheus. */
class QueryTableTest {
  /** Prometheus 2.42's functions ({@code holt_winters} under its 3.x name). */
  static final List<String> FUNCTIONS_2_42 =
      List.of(
          "abs",
          "absent",
          "absent_over_time",
          "acos",
          "acosh",
          "asin",
          "asinh",
          "atan",
          "atanh",
          "avg_over_time",
          "ceil",
          "changes",
          "clamp",
          "clamp_max",
          "clamp_min",
          "cos",
          "cosh",
          "count_over_time",
          "day_of_month",
          "day_of_week",
          "day_of_year",
          "days_in_month",
          "deg",
          "delta",
          "deriv",
          "exp",
          "floor",
          "histogram_count",
          "histogram_fraction",
          "histogram_quantile",
          "histogram_sum",
          "double_exponential_smoothing",
          "hour",
          "idelta",
          "increase",
          "irate",
          "label_join",
          "label_replace",
          "last_over_time",
          "ln",
          "log10",
          "log2",
          "max_over_time",
          "min_over_time",
          "minute",
          "month",
          "pi",
          "predict_linear",
          "present_over_time",
          "quantile_over_time",
          "rad",
          "rate",
          "resets",
          "round",
          "scalar",
          "sgn",
          "sin",
          "sinh",
          "sort",
          "sort_desc",
          "sqrt",
          "stddev_over_time",
          "stdvar_over_time",
          "sum_over_time",
          "tan",
          "tanh",
          "time",
          "timestamp",
          "vector",
          "year");

  /** What the parsed table contains. */
  private static final class Seen {
    final Set<String> functions = new TreeSet<>();
    final Set<AggregateOp> aggregations = EnumSet.noneOf(AggregateOp.class);
    final Set<BinaryOp> operators = EnumSet.noneOf(BinaryOp.class);
    final Set<String> features = new TreeSet<>();

    /** Walks with a stack of its own: the table holds expressions nested 1,500 deep. */
    void walk(Expr root) {
      ArrayDeque<Expr> todo = new ArrayDeque<>();
      todo.push(root);
      while (!todo.isEmpty()) {
        Expr e = todo.pop();
        note(e);
        Children.of(e).forEach(todo::push);
      }
    }

    private void note(Expr e) {
      if (e instanceof Call) {
        Call c = (Call) e;
        functions.add(c.function().name());
      } else if (e instanceof AggregateExpr) {
        AggregateExpr a = (AggregateExpr) e;
        aggregations.add(a.op());
        features.add(a.without() ? "without" : a.grouping().isEmpty() ? "no grouping" : "by");
      } else if (e instanceof BinaryExpr) {
        BinaryExpr b = (BinaryExpr) e;
        operators.add(b.op());
        if (b.returnBool()) {
          features.add("bool");
        }
        VectorMatching m = b.matching();
        if (m != null) {
          if (m.on()) {
            features.add("on");
          } else if (!m.matchingLabels().isEmpty()) {
            features.add("ignoring");
          }
          if (m.card() == VectorMatching.Cardinality.MANY_TO_ONE) {
            features.add("group_left");
          } else if (m.card() == VectorMatching.Cardinality.ONE_TO_MANY) {
            features.add("group_right");
          }
        }
      } else if (e instanceof UnaryExpr) {
        features.add("unary");
      } else if (e instanceof SubqueryExpr) {
        SubqueryExpr s = (SubqueryExpr) e;
        features.add("subquery");
        if (s.at() != null) {
          features.add("@ on subquery");
        }
      } else if (e instanceof VectorSelector) {
        VectorSelector v = (VectorSelector) e;
        if (v.offsetMs() > 0) {
          features.add("offset");
        } else if (v.offsetMs() < 0) {
          features.add("negative offset");
        }
        if (v.at() != null) {
          features.add("@ " + v.at().kind());
        }
        v.matchers().forEach(m -> features.add("matcher " + m.type()));
      }
    }
  }

  @Test
  void coversEveryFunctionOperatorAndAggregationOfPrometheus242() {
    List<QueryTable.Query> queries = QueryTable.all();
    Seen seen = new Seen();
    for (QueryTable.Query q : queries) {
      seen.walk(PromqlParser.parse(q.infermon()));
    }
    assertThat(queries).hasSizeGreaterThanOrEqualTo(300);
    assertThat(seen.functions).containsAll(FUNCTIONS_2_42);
    assertThat(seen.aggregations)
        .containsAll(EnumSet.complementOf(EnumSet.of(AggregateOp.LIMITK, AggregateOp.LIMIT_RATIO)));
    assertThat(seen.operators).containsAll(EnumSet.allOf(BinaryOp.class));
    assertThat(seen.features)
        .contains(
            "by",
            "without",
            "no grouping",
            "bool",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "unary",
            "subquery",
            "@ on subquery",
            "offset",
            "negative offset");
    assertThat(seen.features).anyMatch(f -> f.startsWith("@ "));
    assertThat(seen.features.stream().filter(f -> f.startsWith("matcher "))).hasSize(4);
  }

  @Test
  void queriesAreDistinctAndSpelledTheSameOnBothSidesExceptRenamedFunctions() {
    List<QueryTable.Query> queries = QueryTable.all();
    assertThat(queries.stream().map(QueryTable.Query::infermon)).doesNotHaveDuplicates();
    for (QueryTable.Query q : queries) {
      assertThat(q.prometheus())
          .isEqualTo(q.infermon().replace("double_exponential_smoothing", "holt_winters"));
    }
  }

  @Test
  void knownDifferencesNameQueriesOfTheTable() {
    Set<String> all = new TreeSet<>();
    QueryTable.all().forEach(q -> all.add(q.infermon()));
    assertThat(all).containsAll(DifferentialTest.KNOWN_DIFFERENCES.keySet());
  }
}
