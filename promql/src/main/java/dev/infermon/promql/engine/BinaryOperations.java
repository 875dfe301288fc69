package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.ValueType;
import dev.infermon.promql.parser.VectorMatching;
import dev.infermon.promql.parser.VectorMatching.Cardinality;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binary operators: scalar/scalar, vector/scalar (mapped series by series) and vector/vector with
 * Prometheus's matching ({@code on}/{@code ignoring}, {@code group_left}/{@code group_right}, set
 * operators) and its error messages. Match signatures are computed once per input series, then each
 * step matches by small integers.
 */
final class BinaryOperations {
  private BinaryOperations() {}

  /**
   * Evaluates a chain of binary operators down its left side with a loop ({@code a + b + c + ...}
   * costs one level of stack however long it is): the leftmost operand first, then each operator
   * upwards with its right operand, in the order recursion would take.
   */
  static List<EvalSeries> eval(Evaluator ev, BinaryExpr top) {
    ArrayDeque<BinaryExpr> spine = new ArrayDeque<>();
    Expr e = top;
    while (e instanceof BinaryExpr) {
      spine.push((BinaryExpr) e);
      e = ((BinaryExpr) e).lhs();
    }
    // What vector/vector operators count from: the samples held before their left operand, which
    // for every operator of the spine is before the leftmost operand.
    int before = ev.ctx.currentSamples;
    ValueType lt = e.type();
    List<EvalSeries> lhs = ev.eval(e);
    while (!spine.isEmpty()) {
      BinaryExpr b = spine.pop();
      ValueType rt = b.rhs().type();
      lhs = apply(ev, b, lt, lhs, rt, before);
      lt = lt == ValueType.SCALAR && rt == ValueType.SCALAR ? ValueType.SCALAR : ValueType.VECTOR;
    }
    return lhs;
  }

  /** One operator, its left operand evaluated (of type {@code lt}), its right one not yet. */
  private static List<EvalSeries> apply(
      Evaluator ev, BinaryExpr e, ValueType lt, List<EvalSeries> lhs, ValueType rt, int before) {
    BinaryOp op = e.op();
    if (lt == ValueType.SCALAR && rt == ValueType.SCALAR) {
      double[] l = ev.scalarValues(lhs);
      double[] r = ev.scalarValues(e.rhs());
      EvalSeries s = new EvalSeries(Labels.EMPTY, ev.numSteps);
      for (int i = 0; i < ev.numSteps; i++) {
        s.add(ev.start + i * ev.interval, scalarOp(op, l[i], r[i]));
      }
      List<EvalSeries> out = new ArrayList<>(1);
      out.add(s);
      return out;
    }
    if (lt == ValueType.VECTOR && rt == ValueType.SCALAR) {
      return vectorScalar(ev, op, lhs, ev.scalarValues(e.rhs()), false, e.returnBool());
    }
    if (lt == ValueType.SCALAR && rt == ValueType.VECTOR) {
      double[] s = ev.scalarValues(lhs);
      List<EvalSeries> v = ev.eval(e.rhs());
      return vectorScalar(ev, op, v, s, true, e.returnBool());
    }
    VectorMatching matching = e.matching() != null ? e.matching() : VectorMatching.defaultFor(op);
    return vectorVector(ev, e, matching, lhs, before);
  }

  static double scalarOp(BinaryOp op, double l, double r) {
    switch (op) {
      case ADD:
        return l + r;
      case SUB:
        return l - r;
      case MUL:
        return l * r;
      case DIV:
        return l / r;
      case POW:
        return GoMath.pow(l, r);
      case MOD:
        return l % r;
      case ATAN2:
        return Math.atan2(l, r);
      case EQL:
        return l == r ? 1 : 0;
      case NEQ:
        return l != r ? 1 : 0;
      case GTR:
        return l > r ? 1 : 0;
      case LSS:
        return l < r ? 1 : 0;
      case GTE:
        return l >= r ? 1 : 0;
      case LTE:
        return l <= r ? 1 : 0;
      default:
        throw new QueryException(
            "operator \"" + op.symbol() + "\" not allowed for scalar operations");
    }
  }

  /** Whether a comparison holds; for arithmetic operators always true. */
  static boolean keep(BinaryOp op, double l, double r) {
    switch (op) {
      case EQL:
        return l == r;
      case NEQ:
        return l != r;
      case GTR:
        return l > r;
      case LSS:
        return l < r;
      case GTE:
        return l >= r;
      case LTE:
        return l <= r;
      default:
        return true;
    }
  }

  /** Arithmetic operators change what a metric means, so its name goes. */
  static boolean changesMetricSchema(BinaryOp op) {
    switch (op) {
      case ADD:
      case SUB:
      case MUL:
      case DIV:
      case POW:
      case MOD:
      case ATAN2:
        return true;
      default:
        return false;
    }
  }

  private static List<EvalSeries> vectorScalar(
      Evaluator ev,
      BinaryOp op,
      List<EvalSeries> v,
      double[] scalar,
      boolean scalarLeft,
      boolean returnBool) {
    boolean dropsName = changesMetricSchema(op) || returnBool;
    boolean comparison = op.isComparison();
    for (EvalSeries s : v) {
      int k = 0;
      for (int i = 0; i < s.n; i++) {
        double sv = scalar[ev.stepIndex(s.t[i])];
        double l = scalarLeft ? sv : s.v[i];
        double r = scalarLeft ? s.v[i] : sv;
        double value;
        boolean keep;
        if (comparison) {
          keep = keep(op, l, r);
          value = s.v[i]; // the vector's value, even when the scalar is on the left
        } else {
          keep = true;
          value = scalarOp(op, l, r);
        }
        if (returnBool) {
          value = keep ? 1 : 0;
          keep = true;
        }
        if (keep) {
          s.t[k] = s.t[i];
          s.v[k] = value;
          k++;
        }
      }
      s.n = k;
    }
    v.removeIf(s -> s.n == 0);
    if (!dropsName) {
      return v;
    }
    return InstantFunctions.markNameDropped(ev, v);
  }

  private static List<EvalSeries> vectorVector(
      Evaluator ev, BinaryExpr e, VectorMatching matching, List<EvalSeries> lhs, int before) {
    List<EvalSeries> rhs = ev.eval(e.rhs());
    return vectorVector(ev, e.op(), matching, e.returnBool(), lhs, rhs, before, true);
  }

  /**
   * Both operands evaluated; {@code bySeries} lets {@link SeriesWiseBinary} answer where it gives
   * the per-step loop's result (tests compare the two).
   */
  static List<EvalSeries> vectorVector(
      Evaluator ev,
      BinaryOp op,
      VectorMatching matching,
      boolean returnBool,
      List<EvalSeries> lhs,
      List<EvalSeries> rhs,
      int before,
      boolean bySeries) {
    // Signature ordinals, shared by both sides.
    Set<String> names = new HashSet<>(matching.matchingLabels());
    if (!matching.on()) {
      names.add(Labels.METRIC_NAME);
    }
    Map<Labels, Integer> sigs = new HashMap<>();
    int[] lsig = signatures(lhs, names, matching.on(), sigs);
    int[] rsig = signatures(rhs, names, matching.on(), sigs);
    int numSigs = sigs.size();
    if (bySeries && !ev.isInstant()) {
      List<EvalSeries> out =
          SeriesWiseBinary.eval(
              ev, op, matching, returnBool, lhs, rhs, lsig, rsig, numSigs, before);
      if (out != null) {
        return out;
      }
    }
    Matcher m = new Matcher(ev, op, matching, returnBool, numSigs, lhs, rhs);
    List<List<EvalSeries>> inputs = List.of(lhs, rhs);
    return ev.rangeEvalInputs(
        (in, ts, out) -> {
          switch (op) {
            case LAND:
              setAnd(in[0], in[1], lsig, rsig, numSigs, out, false);
              break;
            case LUNLESS:
              setAnd(in[0], in[1], lsig, rsig, numSigs, out, true);
              break;
            case LOR:
              setOr(in[0], in[1], lsig, rsig, numSigs, out);
              break;
            default:
              m.step(in[0], in[1], lsig, rsig, out);
          }
        },
        inputs,
        before);
  }

  private static int[] signatures(
      List<EvalSeries> m, Set<String> names, boolean on, Map<Labels, Integer> sigs) {
    int[] out = new int[m.size()];
    for (int i = 0; i < m.size(); i++) {
      Labels l = m.get(i).labels;
      Labels key = on ? l.keepOnly(names) : l.without(names);
      Integer s = sigs.get(key);
      if (s == null) {
        s = sigs.size();
        sigs.put(key, s);
      }
      out[i] = s;
    }
    return out;
  }

  private static void setAnd(
      StepVector l,
      StepVector r,
      int[] lsig,
      int[] rsig,
      int numSigs,
      StepVector out,
      boolean unless) {
    if (!unless && (l.n == 0 || r.n == 0)) {
      return;
    }
    boolean[] present = new boolean[numSigs];
    for (int j = 0; j < r.n; j++) {
      present[rsig[r.src[j]]] = true;
    }
    for (int i = 0; i < l.n; i++) {
      if (present[lsig[l.src[i]]] != unless) {
        out.add(l.labels[i], l.v[i], l.drop[i]);
      }
    }
  }

  private static void setOr(
      StepVector l, StepVector r, int[] lsig, int[] rsig, int numSigs, StepVector out) {
    boolean[] present = new boolean[numSigs];
    for (int i = 0; i < l.n; i++) {
      present[lsig[l.src[i]]] = true;
      out.add(l.labels[i], l.v[i], l.drop[i]);
    }
    for (int j = 0; j < r.n; j++) {
      if (!present[rsig[r.src[j]]]) {
        out.add(r.labels[j], r.v[j], r.drop[j]);
      }
    }
  }

  /** One-to-one and many-to-one matching for arithmetic and comparison operators. */
  private static final class Matcher {
    private final Evaluator ev;
    private final BinaryOp op;
    private final VectorMatching matching;
    private final boolean returnBool;
    private final List<EvalSeries> lhsSeries;
    private final List<EvalSeries> rhsSeries;
    private final int[] rightAt; // sig -> index in the "one" side's step vector, or -1
    private final int[] matchedMark; // sig -> step number it was last matched at
    private final Map<Integer, Set<Labels>> manyMatched = new HashMap<>();
    private final Map<Long, Labels> resultCache = new HashMap<>();
    private int stepNo;

    Matcher(
        Evaluator ev,
        BinaryOp op,
        VectorMatching matching,
        boolean returnBool,
        int numSigs,
        List<EvalSeries> lhs,
        List<EvalSeries> rhs) {
      this.ev = ev;
      this.op = op;
      this.matching = matching;
      this.returnBool = returnBool;
      this.lhsSeries = lhs;
      this.rhsSeries = rhs;
      this.rightAt = new int[numSigs];
      this.matchedMark = new int[numSigs];
      Arrays.fill(rightAt, -1);
    }

    void step(StepVector lhs, StepVector rhs, int[] lsig, int[] rsig, StepVector out) {
      stepNo++;
      if (lhs.n == 0 || rhs.n == 0) {
        return;
      }
      boolean oneToMany = matching.card() == Cardinality.ONE_TO_MANY;
      StepVector many = oneToMany ? rhs : lhs;
      StepVector one = oneToMany ? lhs : rhs;
      int[] manySig = oneToMany ? rsig : lsig;
      int[] oneSig = oneToMany ? lsig : rsig;
      // The "one" side must be unique per signature.
      for (int j = 0; j < one.n; j++) {
        int sig = oneSig[one.src[j]];
        if (rightAt[sig] >= 0) {
          int prev = rightAt[sig];
          resetRight(one, oneSig, j);
          duplicateError(one.labels[j], one.labels[prev], oneToMany);
        }
        rightAt[sig] = j;
      }
      manyMatched.clear();
      for (int i = 0; i < many.n; i++) {
        int sig = manySig[many.src[i]];
        int j = rightAt[sig];
        if (j < 0) {
          continue;
        }
        double fl = many.v[i];
        double fr = one.v[j];
        if (oneToMany) {
          double t = fl;
          fl = fr;
          fr = t;
        }
        boolean keep;
        double value;
        if (op.isComparison()) {
          keep = keep(op, fl, fr);
          value = fl;
        } else {
          keep = true;
          value = scalarOp(op, fl, fr);
        }
        if (returnBool) {
          value = keep ? 1 : 0;
        }
        Labels metric = resultMetric(many, i, one, j, oneToMany);
        if (!ev.ctx.delayedNameRemoval && returnBool) {
          metric = LabelNames.dropMetadata(metric);
        }
        if (matching.card() == Cardinality.ONE_TO_ONE) {
          if (matchedMark[sig] == stepNo) {
            resetRight(one, oneSig, one.n);
            throw new QueryException(
                "multiple matches for labels: many-to-one matching must be explicit"
                    + " (group_left/group_right)");
          }
          matchedMark[sig] = stepNo;
        } else {
          Set<Labels> inserted = manyMatched.computeIfAbsent(sig, k -> new HashSet<>());
          if (!inserted.add(metric)) {
            resetRight(one, oneSig, one.n);
            throw new QueryException(
                "multiple matches for labels: grouping labels must ensure unique matches");
          }
        }
        if (!keep && !returnBool) {
          continue;
        }
        out.add(metric, value, returnBool);
      }
      resetRight(one, oneSig, one.n);
    }

    private void resetRight(StepVector one, int[] oneSig, int upTo) {
      for (int j = 0; j < upTo; j++) {
        rightAt[oneSig[one.src[j]]] = -1;
      }
    }

    private void duplicateError(Labels a, Labels b, boolean oneToMany) {
      Labels first = a.compareTo(b) <= 0 ? a : b;
      Labels second = first == a ? b : a;
      Labels group =
          matching.on()
              ? a.keepOnly(Set.copyOf(matching.matchingLabels()))
              : a.without(withName(matching.matchingLabels()));
      throw new QueryException(
          "found duplicate series for the match group "
              + LabelNames.goString(group)
              + " on the "
              + (oneToMany ? "left" : "right")
              + " hand-side of the operation: ["
              + LabelNames.goString(first)
              + ", "
              + LabelNames.goString(second)
              + "];many-to-many matching not allowed: matching labels must be unique on one side");
    }

    private Set<String> withName(List<String> names) {
      Set<String> s = new HashSet<>(names);
      s.add(Labels.METRIC_NAME);
      return s;
    }

    /** The result labels: from the "many" side, reduced by the matching, plus group_x labels. */
    private Labels resultMetric(StepVector many, int i, StepVector one, int j, boolean oneToMany) {
      long key = ((long) many.src[i] << 32) | (one.src[j] & 0xffffffffL);
      Labels cached = resultCache.get(key);
      if (cached != null) {
        return cached;
      }
      Labels res = resultLabels(op, matching, many.labels[i], one.labels[j]);
      resultCache.put(key, res);
      return res;
    }
  }

  /**
   * A match's result labels: from the "many" side {@code l}, reduced by the matching, plus the
   * {@code group_x} labels of the "one" side {@code r}.
   */
  static Labels resultLabels(BinaryOp op, VectorMatching matching, Labels l, Labels r) {
    Labels.Builder b = l.toBuilder();
    if (changesMetricSchema(op)) {
      b.del(Labels.METRIC_NAME).del("__type__").del("__unit__");
    }
    if (matching.card() == Cardinality.ONE_TO_ONE) {
      if (matching.on()) {
        Set<String> keepSet = new HashSet<>(matching.matchingLabels());
        for (String name : l.names()) {
          if (!keepSet.contains(name)) {
            b.del(name);
          }
        }
      } else {
        for (String name : matching.matchingLabels()) {
          b.del(name);
        }
      }
    }
    for (String name : matching.include()) {
      String v = r.get(name);
      if (!v.isEmpty()) {
        b.set(name, v);
      } else {
        b.del(name);
      }
    }
    return b.build();
  }
}
