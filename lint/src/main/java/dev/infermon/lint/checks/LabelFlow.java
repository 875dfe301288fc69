package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.LintQuery;
import dev.infermon.llm.catalog.LabelSpec;
import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.AggregateOp;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.NumberLiteral;
import dev.infermon.promql.parser.ParenExpr;
import dev.infermon.promql.parser.StepInvariantExpr;
import dev.infermon.promql.parser.StringLiteral;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.UnaryExpr;
import dev.infermon.promql.parser.VectorMatching;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Labels that are asked for but that the series do not carry: {@code avg by (node)
 * (DCGM_FI_DEV_GPU_UTIL)} (dcgm-exporter has no {@code node}: every GPU falls into one series) and
 * a legend's {@code {{label}}} that no series of the panel has (every line gets the same name).
 * What a series carries is followed through the expression as Prometheus computes result labels
 * (aggregations keep their grouping, one-to-one matching its {@code on}, functions their input);
 * where a name's labels are unknown nothing is judged. Stateless.
 */
final class LabelFlow {
  private static final Pattern LEGEND = Pattern.compile("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*}}");

  /**
   * Target labels that only some scrape configurations add (infermon's inference discovery): one is
   * judged missing only when no other label of the grouping or legend is carried, so that the
   * series really collapse or share one name.
   */
  private static final Set<String> DISCOVERY = Set.of("node", "role", "workload_name", "backend");

  /** Functions whose result has no labels of their input. */
  private static final Set<String> NO_LABELS = Set.of("vector", "time", "scalar", "pi");

  private LabelFlow() {}

  static void run(QueryScope s) {
    for (ExprWalk.Node n : s.nodes) {
      if (n.expr() instanceof AggregateExpr) {
        grouping(s, (AggregateExpr) n.expr());
      }
    }
    if (s.query.kind() == LintQuery.Kind.PANEL && !s.query.legend().isEmpty()) {
      legend(s);
    }
  }

  private static void grouping(QueryScope s, AggregateExpr a) {
    if (a.without() || a.grouping().isEmpty() || a.op() == AggregateOp.COUNT_VALUES) {
      return;
    }
    for (String label : a.grouping()) {
      if (label.startsWith("__")) {
        continue; // __name__, or a template variable's placeholder
      }
      for (Expr branch : branches(a.expr())) {
        Set<String> carried = labels(s, branch);
        VectorSelector vs = firstSelector(branch);
        if (carried == null || carried.contains(label) || vs == null) {
          continue;
        }
        if (DISCOVERY.contains(label) && a.grouping().stream().anyMatch(carried::contains)) {
          continue; // a label some scrape configuration adds, beside ones that are there
        }
        MetricInfo info = s.info(vs);
        s.report(
            CheckId.LABEL_NOT_CARRIED,
            s.atWord(label),
            a.op().keyword()
                + " by ("
                + String.join(", ", a.grouping())
                + ") over "
                + (info == null ? ExprWalk.metricName(vs) : info.sample())
                + ", whose series carry no "
                + label
                + " label ("
                + own(carried)
                + "): they all fall into one group without it.",
            fix(s, vs, label, carried),
            label);
        break;
      }
    }
  }

  private static void legend(QueryScope s) {
    List<Expr> branches = branches(s.expr);
    List<Set<String>> sets = new ArrayList<>();
    for (Expr b : branches) {
      Set<String> l = labels(s, b);
      if (l == null) {
        return;
      }
      sets.add(l);
    }
    Matcher m = LEGEND.matcher(s.query.legend());
    List<String> named = new ArrayList<>();
    while (m.find()) {
      named.add(m.group(1));
    }
    Set<String> all = new TreeSet<>();
    sets.forEach(all::addAll);
    boolean anyCarried = named.stream().anyMatch(all::contains);
    Set<String> done = new LinkedHashSet<>();
    for (String label : named) {
      if (label.startsWith("__") || !done.add(label) || all.contains(label)) {
        continue;
      }
      if (DISCOVERY.contains(label) && anyCarried) {
        continue;
      }
      VectorSelector vs = firstSelector(s.expr);
      String fix = "";
      if (vs != null) {
        MetricInfo info = s.info(vs);
        boolean dcgm =
            info != null && info.hit() != null && info.hit().engine().engine().equals("dcgm");
        fix =
            label.equals("node") && dcgm
                ? "keep the exporter's node label in the aggregation (by (..., Hostname)) and name"
                    + " it {{Hostname}} ({{hostname}} from dcgm-exporter main)"
                : fix(s, vs, label, all);
      }
      s.report(
          CheckId.LABEL_NOT_CARRIED,
          s.query.start(),
          "the legend \""
              + s.query.legend()
              + "\" names {{"
              + label
              + "}}, a label the panel's series do not carry ("
              + own(all)
              + "): "
              + (anyCarried ? "it is empty on every line." : "every line gets the same name."),
          fix,
          label);
    }
  }

  /** The operands of an {@code or}, where each series comes from one side. */
  private static List<Expr> branches(Expr e) {
    e = ExprWalk.unwrap(e);
    if (e instanceof BinaryExpr && ((BinaryExpr) e).op() == BinaryOp.LOR) {
      List<Expr> out = new ArrayList<>(branches(((BinaryExpr) e).lhs()));
      out.addAll(branches(((BinaryExpr) e).rhs()));
      return out;
    }
    return List.of(e);
  }

  private static VectorSelector firstSelector(Expr e) {
    List<VectorSelector> all = ExprWalk.selectors(e);
    return all.isEmpty() ? null : all.get(0);
  }

  /**
   * The labels the series of {@code e} carry, or null when unknown (a name lint cannot know, an
   * info metric with open labels).
   */
  static Set<String> labels(QueryScope s, Expr e) {
    if (e instanceof ParenExpr) {
      return labels(s, ((ParenExpr) e).expr());
    }
    if (e instanceof StepInvariantExpr) {
      return labels(s, ((StepInvariantExpr) e).expr());
    }
    if (e instanceof SubqueryExpr) {
      return labels(s, ((SubqueryExpr) e).expr());
    }
    if (e instanceof UnaryExpr) {
      return labels(s, ((UnaryExpr) e).expr());
    }
    if (e instanceof NumberLiteral || e instanceof StringLiteral) {
      return Set.of();
    }
    if (e instanceof VectorSelector) {
      MetricInfo info = s.info((VectorSelector) e);
      return info == null ? null : info.carried();
    }
    if (e instanceof MatrixSelector) {
      return labels(s, ((MatrixSelector) e).selector());
    }
    if (e instanceof AggregateExpr) {
      return aggregate(s, (AggregateExpr) e);
    }
    if (e instanceof Call) {
      return call(s, (Call) e);
    }
    if (e instanceof BinaryExpr) {
      return binary(s, (BinaryExpr) e);
    }
    return null;
  }

  private static Set<String> aggregate(QueryScope s, AggregateExpr a) {
    Set<String> in = labels(s, a.expr());
    switch (a.op()) {
      case TOPK:
      case BOTTOMK:
      case LIMITK:
      case LIMIT_RATIO:
        return in; // filters: the series keep their labels
      default:
        break;
    }
    Set<String> out;
    if (a.without()) {
      if (in == null) {
        return null;
      }
      out = new TreeSet<>(in);
      out.removeAll(a.grouping());
      out.remove("__name__");
    } else {
      out = new TreeSet<>(a.grouping());
      if (in != null) {
        out.retainAll(in);
      }
    }
    if (a.op() == AggregateOp.COUNT_VALUES && a.param() instanceof StringLiteral) {
      out.add(((StringLiteral) a.param()).value());
    }
    return out;
  }

  private static Set<String> call(QueryScope s, Call c) {
    String fn = c.function().name();
    if (NO_LABELS.contains(fn)) {
      return Set.of();
    }
    if (fn.equals("absent") || fn.equals("absent_over_time")) {
      return null; // the labels of its matchers' equalities: not followed
    }
    Set<String> in = null;
    boolean vectorArg = false;
    for (Expr arg : c.args()) {
      if (arg.type() == dev.infermon.promql.parser.ValueType.VECTOR
          || arg.type() == dev.infermon.promql.parser.ValueType.MATRIX) {
        in = labels(s, arg);
        vectorArg = true;
        break;
      }
    }
    if (!vectorArg || in == null) {
      return vectorArg ? null : Set.of();
    }
    Set<String> out = new TreeSet<>(in);
    if (fn.equals("histogram_quantile")) {
      out.remove("le");
    }
    if ((fn.equals("label_replace") || fn.equals("label_join"))
        && c.args().size() > 1
        && c.args().get(1) instanceof StringLiteral) {
      out.add(((StringLiteral) c.args().get(1)).value());
    }
    return out;
  }

  private static Set<String> binary(QueryScope s, BinaryExpr b) {
    Set<String> l = labels(s, b.lhs());
    Set<String> r = labels(s, b.rhs());
    boolean lScalar = b.lhs().type() == dev.infermon.promql.parser.ValueType.SCALAR;
    boolean rScalar = b.rhs().type() == dev.infermon.promql.parser.ValueType.SCALAR;
    if (lScalar && rScalar) {
      return Set.of();
    }
    if (lScalar) {
      return r;
    }
    if (rScalar) {
      return l;
    }
    if (b.op() == BinaryOp.LOR) {
      if (l == null || r == null) {
        return null;
      }
      Set<String> out = new TreeSet<>(l);
      out.addAll(r);
      return out;
    }
    if (b.op() == BinaryOp.LAND || b.op() == BinaryOp.LUNLESS) {
      return l;
    }
    VectorMatching m = b.matching();
    VectorMatching.Cardinality card = m == null ? VectorMatching.Cardinality.ONE_TO_ONE : m.card();
    Set<String> side = card == VectorMatching.Cardinality.ONE_TO_MANY ? r : l;
    if (side == null) {
      return null;
    }
    Set<String> out = new TreeSet<>(side);
    if (m != null && card == VectorMatching.Cardinality.ONE_TO_ONE) {
      if (m.on()) {
        out.retainAll(m.matchingLabels());
      } else {
        out.removeAll(m.matchingLabels());
      }
    }
    if (m != null && !m.include().isEmpty()) {
      out.addAll(m.include());
    }
    return out;
  }

  /** The labels of a set worth naming: without the name and the scrape's target labels. */
  private static String own(Set<String> carried) {
    Set<String> own = new TreeSet<>(carried);
    own.removeAll(Reference.SCRAPE_LABELS);
    return own.isEmpty() ? "only target labels" : "its own: " + String.join(", ", own);
  }

  /**
   * The fix: a carried label spelled alike ({@code hostname} for {@code Hostname}, with the
   * catalog's note on the rename), or where the label would come from.
   */
  private static String fix(QueryScope s, VectorSelector vs, String label, Set<String> carried) {
    for (String c : carried) {
      if (c.equalsIgnoreCase(label) && !c.equals(label)) {
        String note = "";
        MetricInfo info = s.info(vs);
        if (info != null && info.hit() != null) {
          for (LabelSpec l : info.hit().latest().labels()) {
            if ((l.name().equals(c) || l.name().equals(label)) && l.note() != null) {
              note = " (" + l.name() + ": " + l.note() + ")";
            }
          }
        }
        return "use " + c + ", the spelling these series carry" + note;
      }
    }
    MetricInfo info = s.info(vs);
    if (label.equals("node")
        && info != null
        && info.hit() != null
        && info.hit().engine().engine().equals("dcgm")) {
      return "group by the exporter's own node label (dcgm-exporter: Hostname, hostname from"
          + " main), or add node as a target label in the scrape configuration";
    }
    return "group by a label the series carry, or add " + label + " as a target label";
  }
}
