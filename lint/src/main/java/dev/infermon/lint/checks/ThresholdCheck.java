package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.LintQuery;
import dev.infermon.llm.catalog.BucketBounds;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.NumberLiteral;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Quantile thresholds and latency alerts: {@code histogram_quantile(0.95, ...) > 2} where 2 is not
 * a bucket bound compares with an interpolated value (the fix names the nearest bounds and the
 * bucket-ratio form, which is exact); an alert on a latency quantile with {@code for} under five
 * minutes pages on single spikes.
 */
final class ThresholdCheck {
  private ThresholdCheck() {}

  static void run(QueryScope s) {
    boolean latencyQuantile = false;
    for (ExprWalk.Node n : s.nodes) {
      if (n.expr() instanceof Call && isQuantile(n.expr())) {
        VectorSelector b = bucketSelector(((Call) n.expr()).args().get(1));
        if (b != null && ExprWalk.metricName(b).contains("seconds")) {
          latencyQuantile = true;
        }
      }
      if (!(n.expr() instanceof BinaryExpr)) {
        continue;
      }
      BinaryExpr be = (BinaryExpr) n.expr();
      if (!be.op().isComparison()) {
        continue;
      }
      Expr l = ExprWalk.unwrap(be.lhs());
      Expr r = ExprWalk.unwrap(be.rhs());
      if (isQuantile(l) && r instanceof NumberLiteral) {
        threshold(s, (Call) l, be.op(), (NumberLiteral) r);
      } else if (isQuantile(r) && l instanceof NumberLiteral) {
        threshold(s, (Call) r, flip(be.op()), (NumberLiteral) l);
      }
    }
    ReleaseBoundsCheck.leMatchers(s);
    if (latencyQuantile
        && s.query.kind() == LintQuery.Kind.ALERT
        && s.query.forDuration().compareTo(s.options.minLatencyFor()) < 0) {
      s.report(
          CheckId.SHORT_FOR,
          s.query.start(),
          "a latency-quantile alert with for: "
              + FunctionChecks.format(s.query.forDuration())
              + ": a quantile over a few minutes of traffic spikes on single slow requests.",
          "for: " + FunctionChecks.format(s.options.minLatencyFor()) + " or more",
          FunctionChecks.format(s.query.forDuration()));
    }
  }

  private static boolean isQuantile(Expr e) {
    return e instanceof Call
        && ((Call) e).function().name().equals("histogram_quantile")
        && ((Call) e).args().size() == 2;
  }

  private static BinaryOp flip(BinaryOp op) {
    switch (op) {
      case GTR:
        return BinaryOp.LSS;
      case LSS:
        return BinaryOp.GTR;
      case GTE:
        return BinaryOp.LTE;
      case LTE:
        return BinaryOp.GTE;
      default:
        return op;
    }
  }

  private static VectorSelector bucketSelector(Expr e) {
    List<VectorSelector> all = bucketSelectors(e);
    return all.isEmpty() ? null : all.get(0);
  }

  private static List<VectorSelector> bucketSelectors(Expr e) {
    List<VectorSelector> out = new ArrayList<>();
    for (VectorSelector vs : ExprWalk.selectors(e)) {
      String n = ExprWalk.metricName(vs);
      if (n != null && n.endsWith("_bucket")) {
        out.add(vs);
      }
    }
    return out;
  }

  /**
   * Judges {@code q op literal} against the bounds of every histogram the quantile reads (a rule
   * that unions vLLM's and SGLang's buckets must have the threshold on both layouts), located at
   * the threshold itself.
   */
  private static void threshold(QueryScope s, Call q, BinaryOp op, NumberLiteral literal) {
    double t = literal.value();
    if (op == BinaryOp.EQL || op == BinaryOp.NEQ || Double.isNaN(t)) {
      return;
    }
    List<String> misses = new ArrayList<>();
    List<String> near = new ArrayList<>();
    String ratio = null;
    String single = null;
    VectorSelector first = null;
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (VectorSelector vs : bucketSelectors(q.args().get(1))) {
      MetricInfo info = s.info(vs);
      if (info == null || !seen.add(info.sample())) {
        continue;
      }
      Optional<List<Double>> bounds = bounds(s.ref, info);
      if (bounds.isEmpty() || bounds.get().isEmpty()) {
        continue;
      }
      BucketBounds.Placement p = BucketBounds.place(t, bounds.get());
      String family = info.sample().substring(0, info.sample().length() - "_bucket".length());
      if (p.onBound()) {
        // a bound of the newest (or of some target): is it one of every release a target may run?
        ReleaseBoundsCheck.quantile(s, info, family, t, op, s.at(literal, s.at(vs)));
        continue;
      }
      if (first == null) {
        first = vs;
        double bound = p.upper() != null ? p.upper() : p.lower();
        ratio = ratioForm(q, vs, family, bound, op);
        p.suggestions().forEach(b -> near.add(BucketBounds.num(b)));
        single = where(p, op);
      }
      misses.add(family);
    }
    if (first == null) {
      return;
    }
    String message;
    String fix;
    if (misses.size() == 1) {
      message =
          "the quantile of "
              + misses.get(0)
              + " is compared with "
              + BucketBounds.num(t)
              + ", "
              + single
              + ".";
      fix =
          "compare with "
              + String.join(" or ", near)
              + (ratio == null ? "" : ", or use the bucket ratio: " + ratio);
    } else {
      message =
          "the quantile over "
              + String.join(" and ", misses)
              + " is compared with "
              + BucketBounds.num(t)
              + ", which is not a bucket bound of each: where it is not, the quantile is"
              + " interpolated, not measured ("
              + misses.get(0)
              + ": "
              + single
              + ").";
      fix = "compare with a bound every layout has, or write one rule per histogram";
    }
    s.report(
        CheckId.THRESHOLD_BETWEEN_BUCKETS,
        s.at(literal, s.at(first)),
        message,
        fix,
        BucketBounds.num(t));
  }

  /** Where {@code p} falls, in words. */
  private static String where(BucketBounds.Placement p, BinaryOp op) {
    if (p.upper() == null) {
      return "above the largest finite bucket bound "
          + BucketBounds.num(p.lower())
          + ": histogram_quantile returns at most "
          + BucketBounds.num(p.lower())
          + " there, so the comparison "
          + (op == BinaryOp.GTR || op == BinaryOp.GTE ? "never holds" : "always holds");
    }
    if (p.lower() == null) {
      return "below the smallest bucket bound "
          + BucketBounds.num(p.upper())
          + ": the quantile there is interpolated from 0";
    }
    return "between the bucket bounds "
        + BucketBounds.num(p.lower())
        + " and "
        + BucketBounds.num(p.upper())
        + ": the quantile there is interpolated, not measured";
  }

  /**
   * The exact form: the share of requests at or under {@code bound}, compared with the quantile's
   * φ. {@code q > T} (slow) becomes {@code share(le=T) < φ}.
   */
  private static String ratioForm(
      Call q, VectorSelector vs, String family, double bound, BinaryOp op) {
    Expr phiExpr = ExprWalk.unwrap(q.args().get(0));
    if (!(phiExpr instanceof NumberLiteral)) {
      return null;
    }
    double phi = ((NumberLiteral) phiExpr).value();
    String grouping = "";
    Expr inner = ExprWalk.unwrap(q.args().get(1));
    if (inner instanceof AggregateExpr) {
      AggregateExpr a = (AggregateExpr) inner;
      List<String> g = new ArrayList<>(a.grouping());
      g.remove("le");
      if (!g.isEmpty()) {
        grouping = (a.without() ? " without (" : " by (") + String.join(", ", g) + ")";
      }
    }
    String window = "5m";
    for (ExprWalk.Node n : ExprWalk.nodes(q)) {
      if (n.expr() instanceof MatrixSelector && ((MatrixSelector) n.expr()).selector() == vs) {
        window =
            FunctionChecks.format(
                java.time.Duration.ofMillis(((MatrixSelector) n.expr()).rangeMs()));
      }
    }
    List<String> m = new ArrayList<>();
    for (Matcher x : vs.matchers()) {
      if (!x.name().equals("__name__") && !x.name().equals("le")) {
        m.add(x.toString());
      }
    }
    String sel = m.isEmpty() ? "" : String.join(", ", m);
    String bucket =
        family
            + "_bucket{"
            + (sel.isEmpty() ? "" : sel + ", ")
            + "le=\""
            + BucketBounds.le(bound)
            + "\"}";
    String count = family + "_count" + (sel.isEmpty() ? "" : "{" + sel + "}");
    String cmp = op == BinaryOp.GTR || op == BinaryOp.GTE ? " < " : " > ";
    String sum = grouping.isEmpty() ? "sum(" : "sum" + grouping + " (";
    return sum
        + "rate("
        + bucket
        + "["
        + window
        + "])) / "
        + sum
        + "rate("
        + count
        + "["
        + window
        + "]))"
        + cmp
        + BucketBounds.num(phi);
  }

  /** The bounds the histogram of {@code info} has: seen on targets, else from the catalog. */
  private static Optional<List<Double>> bounds(Reference ref, MetricInfo info) {
    if (!info.bounds().isEmpty()) {
      return Optional.of(info.bounds());
    }
    if (info.hit() == null) {
      return Optional.empty();
    }
    ReleaseLine v = ref.releases(info.hit().engine()).last();
    Optional<MetricEntry> e = info.hit().entryIn(v);
    return BucketBounds.catalogBounds(e.orElse(info.hit().latest()), v);
  }
}
