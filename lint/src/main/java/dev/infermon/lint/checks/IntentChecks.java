package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.LintQuery;
import dev.infermon.llm.catalog.Avoidance;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.NumberLiteral;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Queries that run but do not mean what they say: an alert on a low {@code up} that falls silent
 * when the targets are gone, prefill and decode pods picked by a pod-name regex, a histogram's
 * {@code _sum} rate shown as a time (it is seconds per second), and gauges the engines' own docs
 * say not to use. Stateless.
 */
final class IntentChecks {
  static final Set<String> RATES = Set.of("rate", "irate", "increase");
  private static final Set<String> POD_LABELS = Set.of("pod", "pod_name", "exported_pod");

  private IntentChecks() {}

  static void run(QueryScope s) {
    if (s.query.kind() == LintQuery.Kind.ALERT) {
      upWithoutAbsent(s);
    }
    Set<String> done = new HashSet<>();
    for (ExprWalk.Node n : s.nodes) {
      Expr e = n.expr();
      if (e instanceof VectorSelector) {
        VectorSelector vs = (VectorSelector) e;
        roleByPodName(s, vs);
        MetricInfo info = s.info(vs);
        if (info != null && done.add(info.sample())) {
          misleading(s, vs, info);
        }
      } else if (e instanceof Call && s.query.kind() != LintQuery.Kind.RECORD) {
        // a recorded _sum rate is usually one half of a ratio divided later
        sumWithoutCount(s, (Call) e, n);
      }
    }
  }

  /**
   * An alert whose condition is a low {@code up} ({@code up == 0}, {@code sum(up) == 0}, {@code
   * count(up == 1) < 2}, {@code avg_over_time(up[5m]) < 0.5}): when the targets vanish (scaled to
   * zero, deleted, dropped by discovery) {@code up} has no series and the alert cannot fire, just
   * when every replica is gone. Fine when the expression also has {@code absent} or {@code or
   * vector(...)}.
   */
  private static void upWithoutAbsent(QueryScope s) {
    VectorSelector up = null;
    boolean low = false;
    for (ExprWalk.Node n : s.nodes) {
      Expr e = n.expr();
      if (e instanceof Call) {
        String fn = ((Call) e).function().name();
        if (fn.equals("absent") || fn.equals("absent_over_time") || fn.equals("vector")) {
          return;
        }
      }
      if (e instanceof VectorSelector && "up".equals(ExprWalk.metricName((VectorSelector) e))) {
        up = up == null ? (VectorSelector) e : up;
      }
      if (e instanceof BinaryExpr && lowComparison((BinaryExpr) e)) {
        low = true;
      }
    }
    if (up == null || !low) {
      return;
    }
    String sel = dev.infermon.promql.parser.Printer.print(up);
    s.report(
        CheckId.UP_WITHOUT_ABSENT,
        s.at(up),
        "the alert compares up with a low threshold: when the targets vanish (scaled to zero,"
            + " deleted, dropped by discovery) up has no series and the alert cannot fire.",
        "add or absent(" + sel + ") to the condition, so that no target at all fires too",
        "up");
  }

  /** {@code x < k}, {@code x <= k}, {@code x == 0} with a number on one side. */
  private static boolean lowComparison(BinaryExpr b) {
    Expr l = ExprWalk.unwrap(b.lhs());
    Expr r = ExprWalk.unwrap(b.rhs());
    BinaryOp op = b.op();
    if (r instanceof NumberLiteral) {
      return op == BinaryOp.LSS
          || op == BinaryOp.LTE
          || (op == BinaryOp.EQL && ((NumberLiteral) r).value() == 0);
    }
    if (l instanceof NumberLiteral) {
      return op == BinaryOp.GTR
          || op == BinaryOp.GTE
          || (op == BinaryOp.EQL && ((NumberLiteral) l).value() == 0);
    }
    return false;
  }

  /** A regex on the pod name that picks prefill or decode pods. */
  private static void roleByPodName(QueryScope s, VectorSelector vs) {
    for (Matcher m : vs.matchers()) {
      if (!POD_LABELS.contains(m.name())
          || (m.type() != MatchType.REGEX && m.type() != MatchType.NOT_REGEX)) {
        continue;
      }
      String v = m.value().toLowerCase(Locale.ROOT);
      String role = v.contains("prefill") ? "prefill" : v.contains("decode") ? "decode" : null;
      if (role == null) {
        continue;
      }
      s.report(
          CheckId.ROLE_BY_POD_NAME,
          s.at(vs),
          "the matcher "
              + m
              + " picks "
              + role
              + " pods by their name: a pod named otherwise (a Deployment's hash, a"
              + " LeaderWorkerSet's index, an engine pod whose name says neither) is counted on the"
              + " wrong side or not at all.",
          "select by the pod's role label: role"
              + (m.type() == MatchType.NOT_REGEX ? "!=" : "=")
              + "\""
              + role
              + "\" (infermon's inference discovery sets it from llm-d.ai/role or the"
              + " RoleBasedGroup role)",
          m.name());
    }
  }

  /**
   * {@code rate(x_seconds_sum[5m])} alone is seconds of x per second, not the time an x takes:
   * without dividing by the {@code _count} rate (or by some other count of the same things) it
   * grows with traffic.
   */
  private static void sumWithoutCount(QueryScope s, Call c, ExprWalk.Node n) {
    if (!RATES.contains(c.function().name()) || c.args().isEmpty()) {
      return;
    }
    Expr arg = ExprWalk.unwrap(c.args().get(0));
    if (!(arg instanceof MatrixSelector)) {
      return;
    }
    VectorSelector vs = ((MatrixSelector) arg).selector();
    String name = ExprWalk.metricName(vs);
    if (name == null || !name.endsWith("_sum")) {
      return;
    }
    MetricInfo info = s.info(vs);
    String family = name.substring(0, name.length() - "_sum".length());
    boolean seconds =
        info != null && info.hit() != null
            ? "seconds".equals(info.hit().latest().unit())
            : family.endsWith("_seconds");
    if (!seconds || info == null || !info.cumulative()) {
      return;
    }
    for (Expr a : n.ancestors()) {
      if (a instanceof BinaryExpr && ((BinaryExpr) a).op() == BinaryOp.DIV) {
        return;
      }
    }
    for (VectorSelector other : s.selectors()) {
      if ((family + "_count").equals(ExprWalk.metricName(other))) {
        return;
      }
    }
    String window =
        FunctionChecks.format(java.time.Duration.ofMillis(((MatrixSelector) arg).rangeMs()));
    s.report(
        CheckId.SUM_WITHOUT_COUNT,
        s.at(vs),
        c.function().name()
            + "("
            + name
            + ") is the seconds spent per second across all requests (it grows with traffic), not"
            + " the time one takes.",
        "divide by the count: rate("
            + name
            + "["
            + window
            + "]) / rate("
            + family
            + "_count["
            + window
            + "])",
        name);
  }

  /** A gauge the catalog says never to use, with the first replacement the targets can serve. */
  private static void misleading(QueryScope s, VectorSelector vs, MetricInfo info) {
    if (info.hit() == null || !info.exposed() || info.created()) {
      return;
    }
    MetricEntry e =
        info.hit().entryIn(s.ref.releases(info.hit().engine()).last()).orElse(info.hit().latest());
    Avoidance a = e.avoid();
    if (a == null) {
      return;
    }
    String fix = "";
    for (Avoidance.Replacement r : a.use()) {
      boolean all = true;
      for (String m : r.metrics()) {
        all &= NameHistory.existsInTargetReleases(s, info.hit().engine(), m);
      }
      if (all) {
        fix = "use " + r.expr(info.hit().variant().prefix());
        break;
      }
    }
    List<String> none = new ArrayList<>();
    if (fix.isEmpty()) {
      none.add(" no counter-based form exists in the releases the endpoints run");
    }
    s.report(
        CheckId.MISLEADING_GAUGE,
        s.at(vs),
        info.sample() + " is " + a.why() + "." + String.join("", none),
        fix,
        info.sample());
  }
}
