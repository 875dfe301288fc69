package dev.infermon.llm.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The estimate on histories made by its own model, where the answer is known exactly, and on the
 * histories it must refuse, each with its reason.
 */
class HeadroomFitTest {
  private static final double KV_PER_REQUEST = 0.004;
  private static final double ITL0 = 0.01;
  private static final double ITL1 = 0.0002;
  private static final double TOKENS = 200;
  private static final long STEP = 300_000;

  /** The model's exact ceiling: the batch that fills the cache, sustained. */
  private static final double BATCH = 1 / KV_PER_REQUEST;

  private static final double CEILING = BATCH / (TOKENS * (ITL0 + ITL1 * BATCH));

  /** A history of {@code rates}, every reading what the model says it is. */
  private static PodHistory history(double... rates) {
    int n = rates.length;
    long[] t = new long[n];
    double[] gen = new double[n];
    double[] itl = new double[n];
    double[] kv = new double[n];
    double[] running = new double[n];
    for (int i = 0; i < n; i++) {
      t[i] = 1_700_000_000_000L + i * STEP;
      double l = rates[i];
      running[i] = l * TOKENS * ITL0 / (1 - l * TOKENS * ITL1); // R = λ·n·(i0 + i1·R)
      itl[i] = ITL0 + ITL1 * running[i];
      kv[i] = KV_PER_REQUEST * running[i];
      gen[i] = TOKENS * l;
    }
    return new PodHistory(
        "m", "ns", "p", t, rates.clone(), gen, itl, kv, new double[n], running, new double[n]);
  }

  /** {@code n} steps rising linearly from {@code from} to {@code to}. */
  private static double[] ramp(int n, double from, double to) {
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = from + (to - from) * i / (n - 1);
    }
    return r;
  }

  @Test
  void theModelsOwnHistoryGivesItsCeilingExactly() {
    double[] rates = ramp(48, 0.3 * CEILING, 0.8 * CEILING);
    Headroom h = HeadroomFit.pod(history(rates), 3);
    assertThat(h.reason()).isEmpty();
    assertThat(h.ceilingRate().getAsDouble()).isCloseTo(CEILING, within(1e-9 * CEILING));
    double current = (rates[45] + rates[46] + rates[47]) / 3;
    assertThat(h.currentRate().getAsDouble()).isCloseTo(current, within(1e-12));
    assertThat(h.headroom().getAsDouble()).isCloseTo(CEILING / current, within(1e-9));
    double perHour = (rates[1] - rates[0]) * 3_600_000.0 / STEP;
    assertThat(h.trendPerHour().getAsDouble()).isCloseTo(perHour, within(1e-9 * perHour));
    assertThat(h.secondsToCeiling().getAsDouble())
        .isCloseTo((CEILING - current) / perHour * 3600, within(1e-6));
    assertThat(h.ceilingUsage().getAsDouble()).isCloseTo(1, within(1e-9));
  }

  @Test
  void aStraightLineThroughTheHistoryWouldOverestimate() {
    // what the ITL term adds: usage per request rate at the history's load, extrapolated linearly
    double[] rates = ramp(48, 0.3 * CEILING, 0.8 * CEILING);
    PodHistory h = history(rates);
    double linear = rates[47] / h.kv()[47];
    assertThat(linear).isGreaterThan(1.2 * CEILING);
    assertThat(HeadroomFit.pod(h, 3).ceilingRate().getAsDouble()).isLessThan(linear);
  }

  @Test
  void aFallingRateHasNoTimeToTheCeilingAndSaysWhy() {
    Headroom h = HeadroomFit.pod(history(ramp(48, 0.8 * CEILING, 0.3 * CEILING)), 3);
    assertThat(h.ceilingRate()).isPresent();
    assertThat(h.secondsToCeiling()).isEmpty();
    assertThat(h.timeReason()).startsWith("the request rate is not rising over the look-back");
  }

  @Test
  void preemptionsInTheHistorySetTheCeiling() {
    PodHistory h = history(ramp(48, 0.3 * CEILING, 0.9 * CEILING));
    h.preemptions()[47] = 0.5;
    double usage = h.kv()[47];
    Headroom r = HeadroomFit.pod(h, 3);
    assertThat(r.ceilingUsage().getAsDouble()).isCloseTo(usage, within(1e-12));
    assertThat(r.ceilingRate().getAsDouble()).isCloseTo(0.9 * CEILING, within(1e-6 * CEILING));
    assertThat(r.limits())
        .anyMatch(l -> l.contains("the lowest step at which the history preempted"));
    assertThat(r.points()).isEqualTo(47);
  }

  @Test
  void theSpreadOfUsageLowersTheCeilingItsPeaksReachFirst() {
    PodHistory h = history(ramp(48, 0.3 * CEILING, 0.8 * CEILING));
    for (int i = 0; i < h.size(); i++) {
      h.kvSpread()[i] = 0.002 * Math.sqrt(h.running()[i]);
    }
    Headroom r = HeadroomFit.pod(h, 3);
    double batch = HeadroomFit.batchAtCeiling(KV_PER_REQUEST, 0.002);
    assertThat(KV_PER_REQUEST * batch + HeadroomFit.Z * 0.002 * Math.sqrt(batch))
        .isCloseTo(1, within(1e-9));
    assertThat(r.ceilingRate().getAsDouble())
        .isCloseTo(batch / (TOKENS * (ITL0 + ITL1 * batch)), within(1e-9))
        .isLessThan(CEILING);
  }

  @Test
  void withoutAKvSignalTheReasonSaysSo() {
    PodHistory h = history(ramp(48, 0.3 * CEILING, 0.8 * CEILING));
    Arrays.fill(h.kv(), Double.NaN);
    Headroom r = HeadroomFit.pod(h, 3);
    assertThat(r.estimated()).isFalse();
    assertThat(r.reason()).startsWith("no KV-cache usage in the history");
    assertThat(r.currentRate()).isPresent();
  }

  @Test
  void tooLittleHistoryGivesTheReason() {
    Headroom r = HeadroomFit.pod(history(ramp(11, 0.3 * CEILING, 0.8 * CEILING)), 3);
    assertThat(r.reason())
        .isEqualTo(
            "too little history: 11 steps with traffic and without preemptions in the look-back,"
                + " at least 12 needed");
  }

  @Test
  void aSteadyLoadGivesTheReason() {
    double[] rates = new double[48];
    Arrays.fill(rates, 0.6 * CEILING);
    assertThat(HeadroomFit.pod(history(rates), 3).reason()).startsWith("no variation in load");
  }

  @Test
  void aLightLoadIsNotExtrapolated() {
    Headroom r = HeadroomFit.pod(history(ramp(48, 0.05 * CEILING, 0.2 * CEILING)), 3);
    assertThat(r.reason()).startsWith("too light a load to extrapolate: KV usage peaked at");
    assertThat(r.ceilingRate()).isEmpty();
  }
}
