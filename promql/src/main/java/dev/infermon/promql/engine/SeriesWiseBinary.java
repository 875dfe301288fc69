package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.VectorMatching;
import dev.infermon.promql.parser.VectorMatching.Cardinality;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Vector/vector operators of a range query evaluated series by series where that gives the per-step
 * loop's answer: {@code or}, and one-to-one arithmetic and comparisons in which each match
 * signature belongs to at most one series per side over the whole range.
 *
 * <p>Why: the per-step loop ({@link Evaluator#rangeEvalInputs}) gathers every input series at each
 * step and looks every output sample up by its labels. The dashboard's queries are chains of {@code
 * or} over the spellings of each engine (most of them empty on a given fleet) and {@code x - x
 * offset d} over every histogram bucket; series by series, each output series is built once and the
 * two sides' points are merged by time.
 *
 * <p>The result is the per-step loop's exactly: the same series with the same points and name
 * flags, in the same order (by first appearance: first step, then the side and the position within
 * it), and the same sample accounting for {@code --query.max-samples} (the samples held at each
 * step). Where it could differ (two output series with equal labels, which the loop merges or
 * rejects), {@link #eval} returns null and the caller runs the loop.
 */
final class SeriesWiseBinary {
  private SeriesWiseBinary() {}

  /** The operator's result, or null when the per-step loop must evaluate it. */
  static List<EvalSeries> eval(
      Evaluator ev,
      BinaryOp op,
      VectorMatching matching,
      boolean returnBool,
      List<EvalSeries> lhs,
      List<EvalSeries> rhs,
      int[] lsig,
      int[] rsig,
      int numSigs,
      int before) {
    if (op == BinaryOp.LOR) {
      return or(ev, lhs, rhs, lsig, rsig, numSigs, before);
    }
    if (op.isSetOperator()
        || matching.card() != Cardinality.ONE_TO_ONE
        || !matching.include().isEmpty()) {
      return null;
    }
    return oneToOne(ev, op, matching, returnBool, lhs, rhs, lsig, rsig, numSigs, before);
  }

  private static List<EvalSeries> or(
      Evaluator ev,
      List<EvalSeries> lhs,
      List<EvalSeries> rhs,
      int[] lsig,
      int[] rsig,
      int numSigs,
      int before) {
    // The steps at which a signature that both sides have has a left-hand sample.
    boolean[] onRight = new boolean[numSigs];
    for (int s : rsig) {
      onRight[s] = true;
    }
    BitSet[] leftSteps = new BitSet[numSigs];
    Set<Labels> labels = new HashSet<>();
    for (int i = 0; i < lhs.size(); i++) {
      EvalSeries l = lhs.get(i);
      if (l.n == 0) {
        continue;
      }
      if (!labels.add(l.labels)) {
        return null;
      }
      int sig = lsig[i];
      if (onRight[sig]) {
        BitSet steps = leftSteps[sig] == null ? leftSteps[sig] = new BitSet() : leftSteps[sig];
        for (int k = 0; k < l.n; k++) {
          steps.set(ev.stepIndex(l.t[k]));
        }
      }
    }
    // Decided before any input is changed: the loop merges or rejects equal labels.
    for (int j = 0; j < rhs.size(); j++) {
      EvalSeries r = rhs.get(j);
      if (kept(ev, r, leftSteps[rsig[j]]) > 0 && !labels.add(r.labels)) {
        return null;
      }
    }
    Held held = new Held(ev, before);
    List<EvalSeries> out = new ArrayList<>(lhs.size() + rhs.size());
    for (EvalSeries l : lhs) {
      held.input(l);
      if (l.n > 0) {
        held.output(l);
        out.add(l);
      }
    }
    for (int j = 0; j < rhs.size(); j++) {
      EvalSeries r = rhs.get(j);
      held.input(r);
      BitSet taken = leftSteps[rsig[j]];
      if (taken != null) {
        without(ev, r, taken);
      }
      if (r.n > 0) {
        held.output(r);
        out.add(r);
      }
    }
    held.account();
    return byFirstAppearance(out);
  }

  /** How many of {@code r}'s points are at steps not in {@code taken} (null: none taken). */
  private static int kept(Evaluator ev, EvalSeries r, BitSet taken) {
    if (taken == null) {
      return r.n;
    }
    int k = 0;
    for (int i = 0; i < r.n; i++) {
      if (!taken.get(ev.stepIndex(r.t[i]))) {
        k++;
      }
    }
    return k;
  }

  /** Keeps {@code r}'s points at the steps not in {@code taken}, in place. */
  private static void without(Evaluator ev, EvalSeries r, BitSet taken) {
    int k = 0;
    for (int i = 0; i < r.n; i++) {
      if (!taken.get(ev.stepIndex(r.t[i]))) {
        r.t[k] = r.t[i];
        r.v[k] = r.v[i];
        k++;
      }
    }
    r.n = k;
  }

  private static List<EvalSeries> oneToOne(
      Evaluator ev,
      BinaryOp op,
      VectorMatching matching,
      boolean returnBool,
      List<EvalSeries> lhs,
      List<EvalSeries> rhs,
      int[] lsig,
      int[] rsig,
      int numSigs,
      int before) {
    int[] rightOf = new int[numSigs];
    Arrays.fill(rightOf, -1);
    for (int j = 0; j < rhs.size(); j++) {
      if (rightOf[rsig[j]] >= 0) {
        return null; // the loop raises the duplicate-series error where both are at one step
      }
      rightOf[rsig[j]] = j;
    }
    boolean[] onLeft = new boolean[numSigs];
    for (int s : lsig) {
      if (onLeft[s]) {
        return null; // the loop raises the multiple-matches error where both are at one step
      }
      onLeft[s] = true;
    }
    Held held = new Held(ev, before);
    for (EvalSeries r : rhs) {
      held.input(r);
    }
    List<EvalSeries> out = new ArrayList<>(Math.min(lhs.size(), rhs.size()));
    Set<Labels> labels = new HashSet<>();
    for (int i = 0; i < lhs.size(); i++) {
      EvalSeries l = lhs.get(i);
      held.input(l);
      int j = rightOf[lsig[i]];
      if (j < 0) {
        continue;
      }
      ev.ctx.checkDeadline();
      EvalSeries r = rhs.get(j);
      Labels metric = BinaryOperations.resultLabels(op, matching, l.labels, r.labels);
      if (!ev.ctx.delayedNameRemoval && returnBool) {
        metric = LabelNames.dropMetadata(metric);
      }
      EvalSeries s = zip(op, returnBool, l, r, metric);
      if (s.n == 0) {
        continue;
      }
      if (!labels.add(metric)) {
        return null;
      }
      held.output(s);
      out.add(s);
    }
    held.account();
    return byFirstAppearance(out);
  }

  /** The operator over the points both series have, as the loop's matcher computes each one. */
  private static EvalSeries zip(
      BinaryOp op, boolean returnBool, EvalSeries l, EvalSeries r, Labels metric) {
    EvalSeries s = new EvalSeries(metric, Math.min(l.n, r.n));
    s.dropName = returnBool;
    boolean comparison = op.isComparison();
    int a = 0;
    int b = 0;
    while (a < l.n && b < r.n) {
      long ta = l.t[a];
      long tb = r.t[b];
      if (ta < tb) {
        a++;
      } else if (tb < ta) {
        b++;
      } else {
        double fl = l.v[a++];
        double fr = r.v[b++];
        boolean keep = !comparison || BinaryOperations.keep(op, fl, fr);
        double value = comparison ? fl : BinaryOperations.scalarOp(op, fl, fr);
        if (returnBool) {
          s.add(ta, keep ? 1 : 0);
        } else if (keep) {
          s.add(ta, value);
        }
      }
    }
    return s;
  }

  /** The per-step loop's order: by first step, then by side and position (a stable sort). */
  private static List<EvalSeries> byFirstAppearance(List<EvalSeries> out) {
    out.sort(Comparator.comparingLong(s -> s.t[0]));
    return out;
  }

  /**
   * The samples the per-step loop would hold at each step: its inputs' samples at the step plus the
   * outputs of that step and of every step before it.
   */
  private static final class Held {
    private final Evaluator ev;
    private final int[] inputs;
    private final int[] outputs;
    private final int start;
    private final int before;

    /** {@code before}: what the count returns to plus the outputs, as the loop's caller says. */
    Held(Evaluator ev, int before) {
      this.ev = ev;
      this.inputs = new int[ev.numSteps];
      this.outputs = new int[ev.numSteps];
      this.start = ev.ctx.currentSamples;
      this.before = before;
    }

    void input(EvalSeries s) {
      for (int k = 0; k < s.n; k++) {
        inputs[ev.stepIndex(s.t[k])]++;
      }
    }

    void output(EvalSeries s) {
      for (int k = 0; k < s.n; k++) {
        outputs[ev.stepIndex(s.t[k])]++;
      }
    }

    /** Throws where the loop would have; leaves the count where the loop leaves it. */
    void account() {
      long held = start;
      long total = 0;
      for (int k = 0; k < inputs.length; k++) {
        ev.ctx.checkHeld(held + inputs[k] + outputs[k]);
        held += outputs[k];
        total += outputs[k];
      }
      ev.ctx.currentSamples = (int) (before + total);
    }
  }
}
