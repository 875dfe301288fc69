package dev.infermon.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.parser.BinaryOp;
import dev.infermon.promql.parser.VectorMatching;
import dev.infermon.promql.parser.VectorMatching.Cardinality;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Vector/vector operators series by series ({@link SeriesWiseBinary}) give exactly what the
 * per-step loop gives: the same series, points (bit for bit), name flags and order, the same error
 * where the loop raises one, and the same samples held for {@code --query.max-samples}, on random
 * operands whose signatures collide, with gaps, duplicates across the sides, NaN and infinities.
 */
class SeriesWiseBinaryProperties {
  private static final long START = 1_000_000;
  private static final long STEP = 15_000;
  private static final double[] SPECIAL = {
    Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0, 1.0
  };
  private static final BinaryOp[] OPS = {
    BinaryOp.LOR,
    BinaryOp.ADD,
    BinaryOp.SUB,
    BinaryOp.DIV,
    BinaryOp.ATAN2,
    BinaryOp.GTR,
    BinaryOp.LTE,
    BinaryOp.EQL,
    BinaryOp.LAND,
    BinaryOp.LUNLESS
  };

  @Property(tries = 2000)
  void bySeriesEqualsTheStepLoop(@ForAll long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int steps = 1 + r.nextInt(12);
    BinaryOp op = OPS[r.nextInt(OPS.length)];
    boolean bool = op.isComparison() && r.nextBoolean();
    VectorMatching matching = matching(op, r);
    List<EvalSeries> lhs = operand(r, steps);
    List<EvalSeries> rhs = operand(r, steps);
    int maxSamples = r.nextInt(4) == 0 ? 1 + r.nextInt(40) : Integer.MAX_VALUE;
    boolean delayed = r.nextBoolean();

    Outcome loop = run(op, matching, bool, lhs, rhs, steps, maxSamples, delayed, false);
    Outcome bySeries = run(op, matching, bool, lhs, rhs, steps, maxSamples, delayed, true);

    assertThat(bySeries.text).isEqualTo(loop.text);
  }

  /** The dashboard's shapes are the ones answered series by series (not all left to the loop). */
  @Example
  void theDashboardsShapesAreAnsweredSeriesBySeries() {
    List<EvalSeries> buckets = new ArrayList<>();
    List<EvalSeries> earlier = new ArrayList<>();
    for (String le : List.of("0.1", "1", "+Inf")) {
      buckets.add(series(Labels.of("__name__", "b", "le", le, "pod", "p"), 0, 1, 2));
      earlier.add(series(Labels.of("__name__", "b", "le", le, "pod", "p"), 1, 2));
    }
    Evaluator ev = evaluator(3, Integer.MAX_VALUE, false);
    assertThat(answer(ev, BinaryOp.SUB, VectorMatching.defaultFor(BinaryOp.SUB), buckets, earlier))
        .isNotNull()
        .hasSize(3)
        .allSatisfy(s -> assertThat(s.n).isEqualTo(2));
    assertThat(
            answer(ev, BinaryOp.LOR, VectorMatching.defaultFor(BinaryOp.LOR), buckets, List.of()))
        .isNotNull()
        .hasSize(3);
    assertThat(
            answer(ev, BinaryOp.LOR, VectorMatching.defaultFor(BinaryOp.LOR), List.of(), earlier))
        .isNotNull()
        .hasSize(3);
  }

  private static List<EvalSeries> answer(
      Evaluator ev, BinaryOp op, VectorMatching m, List<EvalSeries> l, List<EvalSeries> r) {
    java.util.Map<Labels, Integer> sigs = new java.util.HashMap<>();
    java.util.Set<String> names = java.util.Set.of(Labels.METRIC_NAME);
    int[] lsig = sigs(l, names, sigs);
    int[] rsig = sigs(r, names, sigs);
    return SeriesWiseBinary.eval(ev, op, m, false, copy(l), copy(r), lsig, rsig, sigs.size(), 0);
  }

  private static int[] sigs(
      List<EvalSeries> m, java.util.Set<String> names, java.util.Map<Labels, Integer> sigs) {
    int[] out = new int[m.size()];
    for (int i = 0; i < m.size(); i++) {
      out[i] = sigs.computeIfAbsent(m.get(i).labels.without(names), k -> sigs.size());
    }
    return out;
  }

  private static VectorMatching matching(BinaryOp op, SplittableRandom r) {
    Cardinality card =
        op.isSetOperator()
            ? Cardinality.MANY_TO_MANY
            : r.nextInt(5) == 0 ? Cardinality.MANY_TO_ONE : Cardinality.ONE_TO_ONE;
    switch (r.nextInt(4)) {
      case 0:
        return new VectorMatching(card, List.of("x"), true, List.of());
      case 1:
        return new VectorMatching(card, List.of("y"), false, List.of());
      case 2:
        return new VectorMatching(card, List.of(), true, List.of());
      default:
        return card == Cardinality.MANY_TO_ONE
            ? new VectorMatching(card, List.of("x"), true, List.of("y"))
            : new VectorMatching(card, List.of(), false, List.of());
    }
  }

  /** Up to 8 series of distinct labels from a small universe, so signatures collide. */
  private static List<EvalSeries> operand(SplittableRandom r, int steps) {
    List<EvalSeries> out = new ArrayList<>();
    java.util.Set<Labels> seen = new java.util.HashSet<>();
    int n = r.nextInt(9);
    for (int i = 0; i < n; i++) {
      Labels.Builder b = Labels.builder();
      b.set("__name__", r.nextBoolean() ? "a" : "b");
      b.set("x", Integer.toString(r.nextInt(3)));
      if (r.nextBoolean()) {
        b.set("y", Integer.toString(r.nextInt(2)));
      }
      if (r.nextInt(6) == 0) {
        b.set("__type__", "gauge");
      }
      Labels l = b.build();
      if (!seen.add(l)) {
        continue;
      }
      EvalSeries s = new EvalSeries(l, steps);
      for (int k = 0; k < steps; k++) {
        if (r.nextInt(4) != 0) {
          double v = r.nextInt(5) == 0 ? SPECIAL[r.nextInt(SPECIAL.length)] : r.nextInt(7) - 3;
          s.add(START + k * STEP, v);
        }
      }
      s.dropName = r.nextInt(5) == 0;
      out.add(s);
    }
    return out;
  }

  private static EvalSeries series(Labels l, int... steps) {
    EvalSeries s = new EvalSeries(l, steps.length);
    for (int k : steps) {
      s.add(START + k * STEP, k);
    }
    return s;
  }

  /** What one evaluation gave, as text: the series in order, or the error. */
  private record Outcome(String text) {}

  private static Outcome run(
      BinaryOp op,
      VectorMatching matching,
      boolean bool,
      List<EvalSeries> lhs,
      List<EvalSeries> rhs,
      int steps,
      int maxSamples,
      boolean delayed,
      boolean bySeries) {
    Evaluator ev = evaluator(steps, maxSamples, delayed);
    ev.ctx.currentSamples = 5;
    try {
      List<EvalSeries> out =
          BinaryOperations.vectorVector(ev, op, matching, bool, copy(lhs), copy(rhs), 3, bySeries);
      StringBuilder sb = new StringBuilder("held=" + ev.ctx.currentSamples + "\n");
      for (EvalSeries s : out) {
        sb.append(s.labels).append(s.dropName ? " drop" : "").append(':');
        for (int i = 0; i < s.n; i++) {
          sb.append(' ')
              .append((s.t[i] - START) / STEP)
              .append('=')
              .append(Long.toHexString(Double.doubleToLongBits(s.v[i])));
        }
        sb.append('\n');
      }
      return new Outcome(sb.toString());
    } catch (RuntimeException e) {
      return new Outcome(e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private static List<EvalSeries> copy(List<EvalSeries> in) {
    List<EvalSeries> out = new ArrayList<>(in.size());
    for (EvalSeries s : in) {
      out.add(s.copy());
    }
    return out;
  }

  private static Evaluator evaluator(int steps, int maxSamples, boolean delayed) {
    EngineOptions options =
        EngineOptions.DEFAULTS.withMaxSamples(maxSamples).withDelayedNameRemoval(delayed);
    long end = START + (steps - 1) * STEP;
    QueryContext ctx =
        new QueryContext(
            null,
            options,
            START,
            end,
            System.nanoTime() + Duration.ofMinutes(1).toNanos(),
            new AtomicBoolean());
    return new Evaluator(ctx, START, end, STEP);
  }
}
