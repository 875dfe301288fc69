package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.StringLiteral;
import dev.infermon.promql.parser.VectorSelector;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Functions of instant vectors and scalars: math, clamping, rounding, dates, labels, sorting,
 * {@code absent}, {@code scalar}, {@code vector}, {@code time}. Element-wise functions map each
 * series' points directly (no per-step regrouping).
 */
final class InstantFunctions {
  private InstantFunctions() {}

  /** A function of one value and the step's scalar arguments. */
  @FunctionalInterface
  interface PointFn {
    double apply(double v, int step);
  }

  static List<EvalSeries> eval(Evaluator ev, Call call) {
    String name = call.function().name();
    List<Expr> args = call.args();
    switch (name) {
      case "abs":
        return map(ev, args.get(0), (v, s) -> Math.abs(v));
      case "ceil":
        return map(ev, args.get(0), (v, s) -> Math.ceil(v));
      case "floor":
        return map(ev, args.get(0), (v, s) -> Math.floor(v));
      case "exp":
        return map(ev, args.get(0), (v, s) -> Math.exp(v));
      case "sqrt":
        return map(ev, args.get(0), (v, s) -> Math.sqrt(v));
      case "ln":
        return map(ev, args.get(0), (v, s) -> Math.log(v));
      case "log2":
        return map(ev, args.get(0), (v, s) -> GoMath.log2(v));
      case "log10":
        return map(ev, args.get(0), (v, s) -> Math.log10(v));
      case "sin":
        return map(ev, args.get(0), (v, s) -> Math.sin(v));
      case "cos":
        return map(ev, args.get(0), (v, s) -> Math.cos(v));
      case "tan":
        return map(ev, args.get(0), (v, s) -> Math.tan(v));
      case "asin":
        return map(ev, args.get(0), (v, s) -> Math.asin(v));
      case "acos":
        return map(ev, args.get(0), (v, s) -> Math.acos(v));
      case "atan":
        return map(ev, args.get(0), (v, s) -> Math.atan(v));
      case "sinh":
        return map(ev, args.get(0), (v, s) -> Math.sinh(v));
      case "cosh":
        return map(ev, args.get(0), (v, s) -> Math.cosh(v));
      case "tanh":
        return map(ev, args.get(0), (v, s) -> Math.tanh(v));
      case "asinh":
        return map(ev, args.get(0), (v, s) -> GoMath.asinh(v));
      case "acosh":
        return map(ev, args.get(0), (v, s) -> GoMath.acosh(v));
      case "atanh":
        return map(ev, args.get(0), (v, s) -> GoMath.atanh(v));
      case "deg":
        return map(ev, args.get(0), (v, s) -> v * 180 / Math.PI);
      case "rad":
        return map(ev, args.get(0), (v, s) -> v * Math.PI / 180);
      case "sgn":
        return map(ev, args.get(0), (v, s) -> v < 0 ? -1 : v > 0 ? 1 : v);
      case "timestamp":
        return mapPoints(ev, args.get(0), true, (s, i) -> s.t[i] / 1000.0);
      case "clamp":
        return clamp(ev, args.get(0), ev.scalarValues(args.get(1)), ev.scalarValues(args.get(2)));
      case "clamp_min":
        return clamp(ev, args.get(0), ev.scalarValues(args.get(1)), null);
      case "clamp_max":
        return clamp(ev, args.get(0), null, ev.scalarValues(args.get(1)));
      case "round":
        return round(ev, args);
      case "pi":
        return ev.constant(Math.PI);
      case "time":
        return perStep(ev, ts -> ts / 1000.0);
      case "start":
        return ev.constant(ev.ctx.queryStart / 1000.0);
      case "end":
        return ev.constant(ev.ctx.queryEnd / 1000.0);
      case "range":
        return ev.constant((ev.ctx.queryEnd - ev.ctx.queryStart) / 1000.0);
      case "step":
        return ev.constant(ev.ctx.queryStep / 1000.0);
      case "vector":
        {
          List<EvalSeries> m = ev.eval(args.get(0));
          for (EvalSeries s : m) {
            s.labels = Labels.EMPTY;
          }
          return m;
        }
      case "scalar":
        return scalar(ev, args.get(0));
      case "absent":
        return absent(ev, args.get(0));
      case "sort":
      case "sort_desc":
      case "sort_by_label":
      case "sort_by_label_desc":
        return sort(ev, name, args);
      case "label_replace":
        return LabelFunctions.labelReplace(ev, args);
      case "label_join":
        return LabelFunctions.labelJoin(ev, args);
      case "days_in_month":
      case "day_of_month":
      case "day_of_week":
      case "day_of_year":
      case "hour":
      case "minute":
      case "month":
      case "year":
        return date(ev, name, args);
      case "histogram_quantile":
        return HistogramFunctions.quantile(ev, args);
      case "histogram_quantiles":
        return HistogramFunctions.quantiles(ev, args);
      case "histogram_fraction":
        return HistogramFunctions.fraction(ev, args);
      case "histogram_count":
      case "histogram_sum":
      case "histogram_avg":
      case "histogram_stddev":
      case "histogram_stdvar":
        // These read native histograms only; float samples yield nothing.
        ev.eval(args.get(0));
        return new ArrayList<>();
      default:
        throw new QueryException("function " + name + " is not supported");
    }
  }

  /** Applies {@code fn} to every point; drops the name; merges series that collide. */
  static List<EvalSeries> map(Evaluator ev, Expr arg, PointFn fn) {
    List<EvalSeries> m = ev.eval(arg);
    for (EvalSeries s : m) {
      for (int i = 0; i < s.n; i++) {
        s.v[i] = fn.apply(s.v[i], ev.stepIndex(s.t[i]));
      }
    }
    return markNameDropped(ev, m);
  }

  @FunctionalInterface
  interface SeriesPointFn {
    double apply(EvalSeries s, int i);
  }

  private static List<EvalSeries> mapPoints(
      Evaluator ev, Expr arg, boolean dropName, SeriesPointFn fn) {
    List<EvalSeries> m = ev.eval(arg);
    for (EvalSeries s : m) {
      for (int i = 0; i < s.n; i++) {
        s.v[i] = fn.apply(s, i);
      }
    }
    return dropName ? markNameDropped(ev, m) : m;
  }

  /** Marks the series' names dropped: at once (merging collisions) or at the end (delayed). */
  static List<EvalSeries> markNameDropped(Evaluator ev, List<EvalSeries> m) {
    for (EvalSeries s : m) {
      s.dropName = true;
      if (!ev.ctx.delayedNameRemoval) {
        s.labels = LabelNames.dropMetadata(s.labels);
      }
    }
    return ev.ctx.delayedNameRemoval ? m : Evaluator.mergeSameLabels(m);
  }

  private static List<EvalSeries> clamp(Evaluator ev, Expr arg, double[] min, double[] max) {
    List<EvalSeries> m = ev.eval(arg);
    for (EvalSeries s : m) {
      int k = 0;
      for (int i = 0; i < s.n; i++) {
        int step = ev.stepIndex(s.t[i]);
        double lo = min == null ? Double.NEGATIVE_INFINITY : min[step];
        double hi = max == null ? Double.POSITIVE_INFINITY : max[step];
        if (hi < lo) {
          continue; // clamp with max < min returns nothing at that step
        }
        s.t[k] = s.t[i];
        s.v[k] = GoMath.max(lo, GoMath.min(hi, s.v[i]));
        k++;
      }
      s.n = k;
    }
    m.removeIf(s -> s.n == 0);
    return markNameDropped(ev, m);
  }

  private static List<EvalSeries> round(Evaluator ev, List<Expr> args) {
    double[] toNearest = args.size() >= 2 ? ev.scalarValues(args.get(1)) : null;
    return map(
        ev,
        args.get(0),
        (v, step) -> {
          double inverse = 1.0 / (toNearest == null ? 1 : toNearest[step]);
          return Math.floor(v * inverse + 0.5) / inverse;
        });
  }

  @FunctionalInterface
  interface TimeFn {
    double apply(long ts);
  }

  /** A label-less series with {@code fn(step)} at every step. */
  static List<EvalSeries> perStep(Evaluator ev, TimeFn fn) {
    EvalSeries s = new EvalSeries(Labels.EMPTY, ev.numSteps);
    for (long ts = ev.start; ts <= ev.end; ts += ev.interval) {
      s.add(ts, fn.apply(ts));
    }
    ev.ctx.addSamples(s.n);
    List<EvalSeries> out = new ArrayList<>(1);
    out.add(s);
    return out;
  }

  private static List<EvalSeries> scalar(Evaluator ev, Expr arg) {
    return ev.rangeEval(
        (in, ts, out) -> out.add(Labels.EMPTY, in[0].n == 1 ? in[0].v[0] : Double.NaN, false), arg);
  }

  private static List<EvalSeries> absent(Evaluator ev, Expr arg) {
    Labels labels = absentLabels(arg);
    return ev.rangeEval(
        (in, ts, out) -> {
          if (in[0].n == 0) {
            out.add(labels, 1, false);
          }
        },
        arg);
  }

  /** The labels {@code absent} reports: those fixed by equality matchers of a plain selector. */
  static Labels absentLabels(Expr arg) {
    Expr e = Functions.unwrap(arg);
    List<Matcher> matchers;
    if (e instanceof VectorSelector) {
      matchers = ((VectorSelector) e).matchers();
    } else if (e instanceof MatrixSelector) {
      matchers = ((MatrixSelector) e).selector().matchers();
    } else {
      return Labels.EMPTY;
    }
    Labels.Builder b = Labels.builder();
    Set<String> has = new HashSet<>();
    for (Matcher m : matchers) {
      if (m.name().equals(Labels.METRIC_NAME)) {
        continue;
      }
      if (m.type() == MatchType.EQUAL && !has.contains(m.name())) {
        b.set(m.name(), m.value());
        has.add(m.name());
      } else {
        b.del(m.name());
      }
    }
    return b.build();
  }

  private static List<EvalSeries> sort(Evaluator ev, String name, List<Expr> args) {
    List<EvalSeries> m = ev.eval(args.get(0));
    if (!ev.isInstant()) {
      return m; // a range result is ordered by labels anyway
    }
    Comparator<EvalSeries> cmp;
    switch (name) {
      case "sort":
        cmp = (a, b) -> compareNaNLast(a.v[0], b.v[0]);
        break;
      case "sort_desc":
        cmp = (a, b) -> compareNaNLast(-a.v[0], -b.v[0]);
        break;
      default:
        List<String> names = new ArrayList<>();
        for (int i = 1; i < args.size(); i++) {
          names.add(((StringLiteral) Functions.unwrap(args.get(i))).value());
        }
        boolean desc = name.endsWith("_desc");
        cmp =
            (a, b) -> {
              for (String l : names) {
                String x = a.labels.get(l);
                String y = b.labels.get(l);
                if (!x.equals(y)) {
                  int c = NaturalOrder.compare(x, y);
                  return desc ? -c : c;
                }
              }
              int c = a.labels.compareTo(b.labels);
              return desc ? -c : c;
            };
    }
    List<EvalSeries> out = new ArrayList<>(m);
    out.sort(cmp);
    return out;
  }

  private static int compareNaNLast(double a, double b) {
    boolean na = Double.isNaN(a);
    boolean nb = Double.isNaN(b);
    if (na || nb) {
      return na == nb ? 0 : na ? 1 : -1;
    }
    return Double.compare(a, b);
  }

  private static List<EvalSeries> date(Evaluator ev, String name, List<Expr> args) {
    if (args.isEmpty()) {
      return perStep(ev, ts -> dateField(name, Math.floorDiv(ts, 1000L)));
    }
    return map(ev, args.get(0), (v, s) -> dateField(name, GoMath.toInt64(v)));
  }

  private static double dateField(String name, long epochSeconds) {
    // LocalDateTime covers years up to 999,999,999; Go's time covers more. Clamp to what fits.
    long bound = 31_556_889_864_403_199L;
    long secs = Math.max(-bound, Math.min(bound, epochSeconds));
    LocalDateTime t = LocalDateTime.ofEpochSecond(secs, 0, ZoneOffset.UTC);
    switch (name) {
      case "days_in_month":
        return t.toLocalDate().lengthOfMonth();
      case "day_of_month":
        return t.getDayOfMonth();
      case "day_of_week":
        return t.getDayOfWeek().getValue() % 7;
      case "day_of_year":
        return t.getDayOfYear();
      case "hour":
        return t.getHour();
      case "minute":
        return t.getMinute();
      case "month":
        return t.getMonthValue();
      case "year":
        return t.getYear();
      default:
        throw new IllegalArgumentException("not a date function: " + name);
    }
  }

  /** Compiles a Go (RE2) regular expression the way Prometheus anchors it. */
  static Pattern compileAnchored(String regex, String function) {
    try {
      return Pattern.compile("^(?s:" + regex.replace("(?P<", "(?<") + ")$");
    } catch (PatternSyntaxException e) {
      throw new QueryException("invalid regular expression in " + function + "(): " + regex);
    }
  }
}
