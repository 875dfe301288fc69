package dev.infermon.llm.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Failing requests: the share of finished requests that end in error or abort, and which finish
 * reasons carry it. Not thread-safe; lives for one diagnosis.
 */
final class FailureRules {
  private final Thresholds t;
  private final Window w;
  private final Symptoms symptoms;

  FailureRules(Thresholds t, Window w, Symptoms symptoms) {
    this.t = t;
    this.w = w;
    this.symptoms = symptoms;
  }

  /**
   * Errors or aborts: the failing share of finished requests in the window's second half, or the
   * failures symptom (the share over the alert pack's ratio late in the window), and the finish
   * reasons that carry it (vLLM's {@code abort} and {@code error}; SGLang has no finish reason and
   * counts every failure as aborted; TGI, NIM and TensorRT-LLM count failures without a reason).
   * Either counts only with the pack's minimum of failed requests ({@code
   * llm.alerts.failure_min_count}, per 5 minutes): the half on its mean failed rate, the symptom
   * per point, as the alert does.
   */
  Finding errorsRising(Signals.Series s) {
    double[] success = s.get("success");
    if (success == null) {
      return null;
    }
    int half = success.length / 2;
    double first = 1 - Window.mean(success, 0, half);
    double second = 1 - Window.mean(success, half, success.length);
    boolean late = !Double.isNaN(second);
    double failing = late ? second : first;
    double[] failed = s.get("failed");
    double failedRate =
        failed == null
            ? Double.NaN
            : late ? Window.mean(failed, half, failed.length) : Window.mean(failed, 0, half);
    boolean byHalf = failing >= t.errorRatio() && t.alerts().enoughFailures(failedRate);
    int over = symptoms.lastOver(Symptom.FAILURES_HIGH, s, false);
    if (!byHalf && (over < 0 || !symptoms.seen(Symptom.FAILURES_HIGH, s, false))) {
      return null;
    }
    int at = Window.argMin(success);
    List<Evidence> ev = new ArrayList<>();
    ev.add(s.evidence("success", "success ratio", "lowest in the window", at, w));
    ev.add(s.evidence("finished", "finished requests per second", "at the same time", at, w));
    List<String> reasons = new ArrayList<>();
    boolean byReason = false;
    for (String reason : List.of("error", "abort")) {
      String key = "finished_" + reason;
      if (s.get(key) == null) {
        continue;
      }
      byReason = true;
      String what = "finished with " + reason + " per second";
      ev.add(s.evidence(key, what, "at the same time", at, w));
      double share = share(s.get(key), s.get("finished"), half);
      if (share > 0) {
        reasons.add(String.format(Locale.ROOT, "%s %.1f%%", reason, share * 100));
      }
    }
    if (!byReason && s.get("failed") != null) {
      double share = share(s.get("failed"), s.get("finished"), half);
      // "failed", not "aborted": SGLang's failures are aborts, but TGI's (request_failure{err}:
      // validation, overloaded, generation, ...), NIM's and TensorRT-LLM's are not, and the query
      // behind the signal is one for the whole fleet, so it cannot tell which engine a pod runs
      reasons.add(
          String.format(Locale.ROOT, "failed %.1f%%, no finish reason exposed", share * 100));
      ev.add(s.evidence("failed", "failed requests per second", "at the same time", at, w));
    }
    double firstPct = Double.isNaN(first) ? 0 : first * 100;
    String summary =
        byHalf
            ? String.format(
                Locale.ROOT,
                "%.1f%% of finished requests fail in the second half of the window (%.1f%% in the"
                    + " first)",
                failing * 100,
                firstPct)
            // found by the symptom alone: the share crossed the pack's ratio late in the window,
            // with enough failures to count; the halves average it with the points before it
            : String.format(
                Locale.ROOT,
                "%.1f%% of finished requests fail %s, the last point over the alert's %s%% with"
                    + " at least %d failed in 5 minutes (averaged over the window's halves: %.1f%%"
                    + " in the second, %.1f%% in the first)",
                (1 - success[over]) * 100,
                ago(w.end - w.time(over)),
                Symptoms.percent(t.alerts().failureRatio()),
                t.alerts().failureMinCount(),
                failing * 100,
                firstPct);
    summary += reasons.isEmpty() ? "" : ": " + String.join(", ", reasons);
    ev.removeIf(Objects::isNull);
    return new Finding(
        State.ERRORS_RISING,
        s.model,
        s.namespace,
        s.pod,
        summary,
        ev,
        List.of(),
        Readings.notRead(s, List.of(Readings.FINISH_REASONS)));
  }

  /** When a point {@code ms} before the window's end is, in words. */
  private static String ago(long ms) {
    if (ms <= 0) {
      return "at the window's end";
    }
    String minutes =
        new java.math.BigDecimal(String.format(Locale.ROOT, "%.1f", ms / 60_000.0))
            .stripTrailingZeros()
            .toPlainString();
    return minutes + " min before the window's end";
  }

  /** The mean share {@code part / whole} over the points from {@code from} where whole > 0. */
  private static double share(double[] part, double[] whole, int from) {
    if (part == null || whole == null) {
      return Double.NaN;
    }
    double sum = 0;
    int n = 0;
    for (int i = from; i < part.length; i++) {
      if (whole[i] > 0 && !Double.isNaN(part[i])) {
        sum += part[i] / whole[i];
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }
}
