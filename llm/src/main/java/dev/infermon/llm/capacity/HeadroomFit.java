package dev.infermon.llm.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The estimate for one pod from its history (docs/capacity.md, "Method"): KV usage per running
 * request ({@code c}), the residence time by Little's law ({@code W = running / rate}), how the
 * inter-token latency grows with the batch ({@code ITL = i0 + i1·running}), and the request rate at
 * which the batch that fills the cache ({@code R* = ceiling / c}) is sustained: {@code λ* = R* / (W
 * + n·i1·(R* - R))}, {@code n} the tokens generated per request. Pure: arrays in, a {@link
 * Headroom} out.
 */
final class HeadroomFit {
  /** Fewer steps than this fit nothing worth saying. */
  static final int MIN_POINTS = 12;

  /** The running requests must vary at least this much (coefficient of variation). */
  static final double MIN_LOAD_SPREAD = 0.05;

  /**
   * Below this peak KV usage nothing is estimated: at light load how the batch slows decoding is
   * lost in the noise of the request mix, and the extrapolation erred by +40% to +140% on the
   * simulator (docs/capacity.md, "Stated error").
   */
  static final double MIN_USAGE = 0.15;

  /** The stated error of an estimate, relative (docs/capacity.md): the ceiling is within it. */
  static final String STATED_ERROR = "-10% to +20%";

  /** How many standard deviations of the usage's spread the peaks reach above its mean. */
  static final double Z = 3;

  private HeadroomFit() {}

  /** The fitted steps of a history: traffic, every reading present, no preemption. */
  private record Points(
      double[] rate,
      double[] gen,
      double[] itl,
      double[] kv,
      double[] spread,
      double[] running,
      int n) {}

  static Headroom pod(PodHistory h, int currentSteps) {
    OptionalDouble current = current(h.rate(), currentSteps);
    String missing = missing(h);
    if (missing != null) {
      return Headroom.none(h.model(), h.namespace(), h.pod(), current, 0, missing);
    }
    double preemptedAt = Double.NaN;
    for (int i = 0; i < h.size(); i++) {
      if (h.preemptions()[i] > 0 && Double.isFinite(h.kv()[i])) {
        preemptedAt = Double.isNaN(preemptedAt) ? h.kv()[i] : Math.min(preemptedAt, h.kv()[i]);
      }
    }
    Points p = points(h);
    if (p.n < MIN_POINTS) {
      return Headroom.none(
          h.model(),
          h.namespace(),
          h.pod(),
          current,
          p.n,
          "too little history: "
              + p.n
              + " steps with traffic and without preemptions in the look-back, at least "
              + MIN_POINTS
              + " needed");
    }
    Line itl = Line.fit(p.running, p.itl);
    if (itl.meanX() <= 0 || itl.spreadX() / itl.meanX() < MIN_LOAD_SPREAD) {
      return Headroom.none(
          h.model(),
          h.namespace(),
          h.pod(),
          current,
          p.n,
          String.format(
              Locale.ROOT,
              "no variation in load: the running requests stayed at %.3g (±%.1f%%) over the"
                  + " look-back, so how latency grows with the batch cannot be read",
              itl.meanX(),
              100 * itl.spreadX() / Math.max(itl.meanX(), 1e-12)));
    }
    double peak = max(p.kv);
    if (peak < MIN_USAGE && Double.isNaN(preemptedAt)) {
      return Headroom.none(
          h.model(),
          h.namespace(),
          h.pod(),
          current,
          p.n,
          String.format(
              Locale.ROOT,
              "too light a load to extrapolate: KV usage peaked at %.1f%% of the cache in the"
                  + " look-back (at least %.0f%% needed)",
              100 * peak,
              100 * MIN_USAGE));
    }
    return estimate(h, p, itl, current, preemptedAt);
  }

  /** The batch at which the usage's peaks reach the ceiling: {@code c·R + Z·s·√R = 1}. */
  static double batchAtCeiling(double kvPerRequest, double spreadPerRootRequest) {
    double zs = Z * spreadPerRootRequest;
    double x = (-zs + Math.sqrt(zs * zs + 4 * kvPerRequest)) / (2 * kvPerRequest);
    return x * x;
  }

  private static Headroom estimate(
      PodHistory h, Points p, Line itl, OptionalDouble current, double preemptedAt) {
    boolean preempted = !Double.isNaN(preemptedAt);
    double kvPerRequest = sum(p.kv) / sum(p.running);
    double spread = 0;
    for (int i = 0; i < p.n; i++) {
      spread += Double.isFinite(p.spread[i]) ? p.spread[i] * Math.sqrt(p.running[i]) : 0;
    }
    spread /= sum(p.running);
    double tokensPerRequest = sum(p.gen) / sum(p.rate);
    double residence = sum(p.running) / sum(p.rate);
    // the rate-weighted mean batch: the one the residence time above belongs to
    double meanRunning = 0;
    for (int i = 0; i < p.n; i++) {
      meanRunning += p.rate[i] * p.running[i];
    }
    meanRunning /= sum(p.rate);
    double slope = Math.max(0, itl.slope());
    double batch = preempted ? preemptedAt / kvPerRequest : batchAtCeiling(kvPerRequest, spread);
    double ceilingUsage = batch * kvPerRequest;
    double ceiling = rateAt(batch, residence, tokensPerRequest, slope, meanRunning);
    double low =
        rateAt(batch, residence, tokensPerRequest, slope + 2 * itl.slopeError(), meanRunning);
    double high =
        rateAt(
            batch,
            residence,
            tokensPerRequest,
            Math.max(0, slope - 2 * itl.slopeError()),
            meanRunning);
    double maxUsage = max(p.kv);
    List<String> limits = new ArrayList<>();
    limits.add(extrapolation(maxUsage, ceilingUsage));
    if (preempted) {
      limits.add(
          String.format(
              Locale.ROOT,
              "ceiling at mean KV usage %.2f, the lowest step at which the history preempted",
              ceilingUsage));
    }
    if (!preempted) {
      limits.add(
          String.format(
              Locale.ROOT,
              "ceiling at mean KV usage %.2f, where its peaks (%.0f standard deviations of its"
                  + " spread within a step) reach the full cache",
              ceilingUsage,
              Z));
    }
    if (itl.slope() <= 0) {
      limits.add(
          "inter-token latency did not grow with the batch in the history: taken as flat, so the"
              + " ceiling is an upper bound");
    }
    limits.add(
        String.format(
            Locale.ROOT,
            "assumes the request mix of the history holds: %.0f generated tokens and %.2f%% of the"
                + " KV cache per running request",
            tokensPerRequest,
            100 * kvPerRequest));
    Line trend = trend(h.timesMs(), h.rate());
    return CapacityMath.headroom(
        h.model(),
        h.namespace(),
        h.pod(),
        current,
        ceiling,
        low,
        high,
        ceilingUsage,
        maxUsage,
        trend,
        p.n,
        limits);
  }

  /** The rate that sustains {@code batch} running requests, residence time grown with the batch. */
  static double rateAt(double batch, double residence, double tokens, double slope, double mean) {
    double w = residence + tokens * slope * (batch - mean);
    return w > 0 ? batch / w : Double.NaN;
  }

  static String extrapolation(double maxUsage, double ceilingUsage) {
    return String.format(
        Locale.ROOT,
        "fitted on mean KV usage up to %.0f%%, %s %.0f%%: stated error %s",
        100 * maxUsage,
        maxUsage < ceilingUsage ? "extrapolated to" : "interpolated at",
        100 * ceilingUsage,
        STATED_ERROR);
  }

  /** What makes an estimate impossible whatever the history's length, or null. */
  private static String missing(PodHistory h) {
    if (!PodHistory.any(h.kv())) {
      return "no KV-cache usage in the history: the pod's engine exports no KV usage gauge the"
          + " catalog knows";
    }
    if (!PodHistory.any(h.running())) {
      return "no running-requests gauge in the history";
    }
    if (!PodHistory.any(h.itl())) {
      return "no inter-token latency histogram in the history (needed to see how the batch slows"
          + " decoding)";
    }
    if (!PodHistory.any(h.rate())) {
      return "no finished-requests counter in the history";
    }
    return null;
  }

  private static Points points(PodHistory h) {
    int n = 0;
    int size = h.size();
    double[][] out = new double[6][size];
    for (int i = 0; i < size; i++) {
      double r = h.rate()[i];
      double running = h.running()[i];
      boolean ok =
          r > 0
              && running > 0
              && Double.isFinite(h.kv()[i])
              && Double.isFinite(h.itl()[i])
              && Double.isFinite(h.generated()[i])
              && !(h.preemptions()[i] > 0);
      if (ok) {
        out[0][n] = r;
        out[1][n] = h.generated()[i];
        out[2][n] = h.itl()[i];
        out[3][n] = h.kv()[i];
        out[4][n] = h.kvSpread()[i];
        out[5][n] = running;
        n++;
      }
    }
    return new Points(
        java.util.Arrays.copyOf(out[0], n),
        java.util.Arrays.copyOf(out[1], n),
        java.util.Arrays.copyOf(out[2], n),
        java.util.Arrays.copyOf(out[3], n),
        java.util.Arrays.copyOf(out[4], n),
        java.util.Arrays.copyOf(out[5], n),
        n);
  }

  /** The mean of the last {@code steps} finite values; empty when there is none. */
  static OptionalDouble current(double[] rate, int steps) {
    double s = 0;
    int n = 0;
    for (int i = rate.length - 1; i >= 0 && i >= rate.length - steps; i--) {
      if (Double.isFinite(rate[i])) {
        s += rate[i];
        n++;
      }
    }
    return n == 0 ? OptionalDouble.empty() : OptionalDouble.of(s / n);
  }

  /** The rate's linear trend against time in hours; null with fewer than two points. */
  static Line trend(long[] timesMs, double[] rate) {
    double[] hours = new double[timesMs.length];
    for (int i = 0; i < hours.length; i++) {
      hours[i] = (timesMs[i] - timesMs[0]) / 3_600_000.0;
    }
    return Line.fit(hours, rate);
  }

  private static double sum(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s;
  }

  private static double max(double[] v) {
    double m = 0;
    for (double x : v) {
      m = Math.max(m, x);
    }
    return m;
  }
}
