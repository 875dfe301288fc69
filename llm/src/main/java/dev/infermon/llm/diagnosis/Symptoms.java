package dev.infermon.llm.diagnosis;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The symptoms the default alerts watch, judged per pod and per model with the pack's thresholds,
 * and the pass that ties each seen symptom to the findings that explain it: a symptom no finding
 * explains becomes {@link State#CAUSE_NOT_FOUND}, naming the value and the signals that could not
 * be read. Not thread-safe; lives for one diagnosis.
 */
final class Symptoms {
  /** The signal a symptom is judged on, per pod and per model ({@code null}: pods only). */
  private record Source(String podKey, String modelKey, String label) {}

  private final Thresholds t;
  private final Window w;

  Symptoms(Thresholds t, Window w) {
    this.t = t;
    this.w = w;
  }

  private Source source(Symptom s) {
    String ttft = "TTFT p" + percent(t.alerts().ttftQuantile()) + " (s)";
    switch (s) {
      case TTFT_HIGH:
        return new Source("ttft", "m_ttft", ttft);
      case QUEUED_WHILE_PREEMPTING:
        return new Source("waiting", "m_waiting", "requests waiting");
      case FAILURES_HIGH:
        return new Source("success", "m_success", "failing share of finished requests");
      case ITL_HIGH:
        return new Source("itl_mean", null, "ITL mean (s)");
      default:
        throw new AssertionError(s);
    }
  }

  /**
   * Per point, how far the symptom's signal is over its threshold (positive: over), NaN where it
   * has no point; null when the series has none of it.
   */
  private double[] excess(Symptom s, Signals.Series x, boolean model) {
    Source src = source(s);
    String key = model ? src.modelKey() : src.podKey();
    if (key == null || x.get(key) == null) {
      return null;
    }
    double[] v = x.get(key);
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      switch (s) {
        case TTFT_HIGH:
          out[i] = v[i] - t.ttftHigh();
          break;
        case QUEUED_WHILE_PREEMPTING:
          // the pack's condition: waiting over its limit and preemptions counted, at once
          double[] p = x.get(model ? "m_preemptions" : "preemptions");
          if (p == null || Double.isNaN(p[i]) || (!model && Double.isNaN(v[i]))) {
            out[i] = Double.NaN;
          } else if (model) {
            // a model's waiting is its preempting engines' only, with a point only where one of
            // them preempts (Diagnoser.waitingWhilePreempting): none there is under the limit
            out[i] = Double.isNaN(v[i]) ? -1 : v[i] - t.alerts().waitingThreshold();
          } else {
            out[i] = p[i] > 0 ? v[i] - t.alerts().waitingThreshold() : -1;
          }
          break;
        case FAILURES_HIGH:
          // the pack's guard: a share counts only once enough requests failed to make it one
          double[] f = x.get(model ? "m_failed" : "failed");
          boolean enough = t.alerts().enoughFailures(f == null ? Double.NaN : f[i]);
          out[i] =
              Double.isNaN(v[i])
                  ? Double.NaN
                  : enough ? (1 - v[i]) - t.alerts().failureRatio() : -1;
          break;
        case ITL_HIGH:
          out[i] = v[i] - t.itlHigh();
          break;
        default:
          throw new AssertionError(s);
      }
    }
    return out;
  }

  /**
   * Whether {@code x} shows {@code s}: over its threshold (strictly, as the alerts compare) in at
   * least {@link Thresholds#symptomShare} of the window's points, or at the window's last point.
   */
  boolean seen(Symptom s, Signals.Series x, boolean model) {
    double[] e = excess(s, x, model);
    if (e == null || Window.defined(e) == 0) {
      return false;
    }
    double last = Double.NaN;
    for (int i = e.length - 1; i >= 0 && Double.isNaN(last); i--) {
      last = e[i];
    }
    return last > 0 || Window.share(e, d -> d > 0) >= t.symptomShare();
  }

  /** The last point of the window where {@code x} is over {@code s}'s threshold, or -1. */
  int lastOver(Symptom s, Signals.Series x, boolean model) {
    double[] e = excess(s, x, model);
    for (int i = e == null ? -1 : e.length - 1; i >= 0; i--) {
      if (e[i] > 0) {
        return i;
      }
    }
    return -1;
  }

  /** Every symptom {@code x} shows. */
  Set<Symptom> seen(Signals.Series x, boolean model) {
    Set<Symptom> out = EnumSet.noneOf(Symptom.class);
    for (Symptom s : Symptom.values()) {
      if (seen(s, x, model)) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * The findings with the symptoms each explains, followed by a {@link State#CAUSE_NOT_FOUND} for
   * every symptom seen on a pod or a model that none of them explains (a model's only when no pod
   * of it already has one for that symptom).
   */
  List<Finding> explain(
      List<Finding> found, Map<String, Signals.Series> pods, Map<String, Signals.Series> models) {
    List<Finding> out = new ArrayList<>();
    for (Finding f : found) {
      Set<Symptom> shown = EnumSet.noneOf(Symptom.class);
      for (Signals.Series p : pods.values()) {
        if (sameModel(f, p) && (f.pod().isEmpty() || f.pod().equals(p.pod))) {
          shown.addAll(seen(p, false));
        }
      }
      for (Signals.Series m : models.values()) {
        if (sameModel(f, m)) {
          for (Symptom s : seen(m, true)) {
            if (partOf(s, f, pods)) {
              shown.add(s);
            }
          }
        }
      }
      shown.retainAll(f.state().explains());
      out.add(f.withSymptoms(List.copyOf(shown)));
    }
    for (Signals.Series p : pods.values()) {
      if (p.model.isEmpty()) {
        continue;
      }
      for (Symptom s : seen(p, false)) {
        if (!explained(out, pods, p, s, false)) {
          out.add(notFound(s, p, false, List.of(p)));
        }
      }
    }
    for (Signals.Series m : models.values()) {
      if (m.model.isEmpty()) {
        continue;
      }
      for (Symptom s : seen(m, true)) {
        if (!explained(out, pods, m, s, true)) {
          List<Signals.Series> members = new ArrayList<>();
          for (Signals.Series p : pods.values()) {
            if (p.model.equals(m.model) && p.namespace.equals(m.namespace)) {
              members.add(p);
            }
          }
          out.add(notFound(s, m, true, members));
        }
      }
    }
    return out;
  }

  private static boolean sameModel(Finding f, Signals.Series s) {
    return f.model().equals(s.model) && f.namespace().equals(s.namespace);
  }

  /**
   * Whether a model's {@code s} can be one of {@code f}'s: always on a finding of the whole model;
   * on a pod's, unless the symptom is queued-while-preempting and the pod reports no preemptions. A
   * model's queue while preempting is its preempting engines' alone, as the alert's
   * (Diagnoser.waitingWhilePreempting), so a NIM or TGI pod of the model, however full, has no part
   * in it and is not the alert's cause.
   */
  private static boolean partOf(Symptom s, Finding f, Map<String, Signals.Series> pods) {
    if (s != Symptom.QUEUED_WHILE_PREEMPTING || f.pod().isEmpty()) {
      return true;
    }
    for (Signals.Series p : pods.values()) {
      if (sameModel(f, p) && p.pod.equals(f.pod()) && p.get("preemptions") != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a finding explains {@code s} on {@code x}: a state that explains it on the same pod or
   * on the whole model; for a model, any finding on it that does ({@link #partOf} it), or a pod's
   * cause-not-found.
   */
  private static boolean explained(
      List<Finding> out,
      Map<String, Signals.Series> pods,
      Signals.Series x,
      Symptom s,
      boolean model) {
    for (Finding f : out) {
      if (!sameModel(f, x)) {
        continue;
      }
      boolean samePlace = model ? partOf(s, f, pods) : f.pod().isEmpty() || f.pod().equals(x.pod);
      boolean explains =
          f.state().explains().contains(s)
              || (model && f.state() == State.CAUSE_NOT_FOUND && f.symptoms().contains(s));
      if (samePlace && explains) {
        return true;
      }
    }
    return false;
  }

  private Finding notFound(
      Symptom s, Signals.Series x, boolean model, List<Signals.Series> members) {
    Source src = source(s);
    String key = model ? src.modelKey() : src.podKey();
    double[] v = x.get(key);
    // the worst point: the highest latency or queue, the lowest success ratio
    int at = s == Symptom.FAILURES_HIGH ? Window.argMin(v) : Window.argMax(v);
    double value = s == Symptom.FAILURES_HIGH ? 1 - v[at] : v[at];
    List<String> missing = new ArrayList<>();
    for (Signals.Series p : members) {
      for (String r : Readings.notRead(p, Readings.causesOf(s))) {
        if (!missing.contains(r)) {
          missing.add(r);
        }
      }
    }
    String where =
        model ? "model " + x.model + " in " + x.namespace : "pod " + x.namespace + "/" + x.pod;
    String summary =
        describe(s, value, where)
            + "; cause not found: "
            + (missing.isEmpty()
                ? "every signal the states need was read and none explains it"
                : "could not read " + String.join(", ", missing));
    Evidence e =
        new Evidence(
            src.label(),
            x.queries.getOrDefault(key, ""),
            x.series(),
            value,
            w.time(at),
            s == Symptom.FAILURES_HIGH ? "highest over the window" : "max over the window");
    return new Finding(
        State.CAUSE_NOT_FOUND,
        x.model,
        x.namespace,
        model ? "" : x.pod,
        summary,
        List.of(e),
        List.of(s),
        missing);
  }

  private String describe(Symptom s, double v, String where) {
    switch (s) {
      case TTFT_HIGH:
        return String.format(
            Locale.ROOT,
            "TTFT p%s is up to %s s on %s",
            percent(t.alerts().ttftQuantile()),
            num(v),
            where);
      case QUEUED_WHILE_PREEMPTING:
        return String.format(
            Locale.ROOT, "up to %.0f requests wait while the engine preempts on %s", v, where);
      case FAILURES_HIGH:
        return String.format(
            Locale.ROOT, "up to %.1f%% of finished requests fail on %s", v * 100, where);
      case ITL_HIGH:
        return String.format(
            Locale.ROOT, "mean inter-token latency is up to %s s on %s", num(v), where);
      default:
        throw new AssertionError(s);
    }
  }

  /** {@code v} to three significant digits, without trailing zeros ({@code 0.15}, {@code 2}). */
  static String num(double v) {
    if (!Double.isFinite(v)) {
      return String.valueOf(v);
    }
    return new java.math.BigDecimal(v)
        .round(new java.math.MathContext(3))
        .stripTrailingZeros()
        .toPlainString();
  }

  /** {@code q} in percent as the alert names it (0.95 is 95, 0.999 is 99.9). */
  static String percent(double q) {
    return new java.math.BigDecimal(Double.toString(q))
        .movePointRight(2)
        .stripTrailingZeros()
        .toPlainString();
  }
}
