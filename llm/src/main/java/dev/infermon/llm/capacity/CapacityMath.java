package dev.infermon.llm.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * What a ceiling means now: the headroom over the current rate and the time to the ceiling at the
 * rate's trend, per pod and per model. Pure.
 */
final class CapacityMath {
  private CapacityMath() {}

  /** A pod's (or model's) headroom from its ceiling, interval, current rate and trend. */
  static Headroom headroom(
      String model,
      String namespace,
      String pod,
      OptionalDouble current,
      double ceiling,
      double low,
      double high,
      double ceilingUsage,
      double maxUsage,
      Line trend,
      int points,
      List<String> limits) {
    if (!(ceiling > 0)) {
      return Headroom.none(
          model, namespace, pod, current, points, "the fit does not reach the ceiling");
    }
    List<String> notes = new ArrayList<>(limits);
    OptionalDouble headroom = OptionalDouble.empty();
    OptionalDouble seconds = OptionalDouble.empty();
    String timeReason;
    double now = current.orElse(0);
    if (now > 0) {
      headroom = OptionalDouble.of(ceiling / now);
    } else {
      notes.add("no traffic now: the headroom over the current rate is undefined");
    }
    if (trend == null) {
      timeReason = "too few points for a trend";
    } else if (!trend.rising()) {
      timeReason =
          String.format(
              Locale.ROOT,
              "the request rate is not rising over the look-back (trend %+.3g ± %.2g req/s per"
                  + " hour)",
              trend.slope(),
              trend.slopeError());
    } else {
      timeReason = "";
      seconds = OptionalDouble.of(Math.max(0, (ceiling - now) / trend.slope() * 3600));
    }
    return new Headroom(
        model,
        namespace,
        pod,
        current,
        OptionalDouble.of(ceiling),
        finite(Math.min(low, ceiling)),
        finite(Math.max(high, ceiling)),
        headroom,
        OptionalDouble.of(ceilingUsage),
        OptionalDouble.of(maxUsage),
        trend == null ? OptionalDouble.empty() : OptionalDouble.of(trend.slope()),
        seconds,
        timeReason,
        points,
        "",
        notes);
  }

  /**
   * A model's headroom from its pods': the first pod to reach its ceiling sets it, load growing on
   * every pod in today's proportions; the trend is of the pods' summed rate.
   */
  static Headroom model(
      String model, String namespace, List<Headroom> pods, long[] timesMs, double[] rate) {
    Headroom first = null;
    double current = 0;
    boolean anyCurrent = false;
    for (Headroom p : pods) {
      if (p.currentRate().isPresent()) {
        current += p.currentRate().getAsDouble();
        anyCurrent = true;
      }
      if (p.headroom().isPresent()
          && (first == null || p.headroom().getAsDouble() < first.headroom().getAsDouble())) {
        first = p;
      }
    }
    OptionalDouble now = anyCurrent ? OptionalDouble.of(current) : OptionalDouble.empty();
    if (first == null) {
      String why = pods.isEmpty() ? "no pod of the model in the history" : pods.get(0).reason();
      return Headroom.none(
          model,
          namespace,
          "",
          now,
          0,
          "no pod of the model has an estimate"
              + (why.isEmpty() ? "" : " (" + pods.get(0).pod() + ": " + why + ")"));
    }
    double h = first.headroom().getAsDouble();
    double share = current / first.currentRate().getAsDouble();
    List<String> limits = new ArrayList<>();
    limits.add(
        "the first pod to reach its ceiling ("
            + first.pod()
            + ") sets the model's: load grows on every pod in today's proportions");
    long without = pods.stream().filter(p -> !p.estimated()).count();
    if (without > 0) {
      limits.add(without + " of " + pods.size() + " pods have no estimate and are left out");
    }
    limits.addAll(first.limits());
    int points = pods.stream().mapToInt(Headroom::points).max().orElse(0);
    return headroom(
        model,
        namespace,
        "",
        now,
        current * h,
        first.ceilingLow().orElse(Double.NaN) * share,
        first.ceilingHigh().orElse(Double.NaN) * share,
        first.ceilingUsage().getAsDouble(),
        first.maxObservedUsage().getAsDouble(),
        HeadroomFit.trend(timesMs, rate),
        points,
        limits);
  }

  private static OptionalDouble finite(double v) {
    return Double.isFinite(v) && v > 0 ? OptionalDouble.of(v) : OptionalDouble.empty();
  }
}
