package dev.infermon.simulator.replay;

import dev.infermon.model.labels.Labels;
import java.util.Map;

/**
 * Counters whose rate the page states in a gauge beside them. Most counters count since their
 * process started, so a replay grows them by their captured value per uptime. dcgm-exporter's
 * {@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION} counts "since boot (in mJ)" of the GPU, which is
 * older than any uptime a replay assumes: grown that way its rate is the GPU's whole life's energy
 * per uptime (on the RTX 4000 Ada capture three times the captured power draw). The page states the
 * real rate: {@code DCGM_FI_DEV_POWER_USAGE}, "Power draw (in W)", on the same series; the replay
 * grows the counter by that many watts, x1,000 for millijoules. Both HELP texts are dcgm-exporter's
 * etc/default-counters.csv, as the captures carry them.
 */
final class StatedRates {
  /** A counter and how much it grows per second per unit of the gauge that states its rate. */
  private record Rate(String counter, double perSecondPerUnit) {}

  private static final Map<String, Rate> BY_GAUGE =
      Map.of("DCGM_FI_DEV_POWER_USAGE", new Rate("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 1_000.0));

  private StatedRates() {}

  /**
   * The key that pairs a stated-rate gauge with its counter: the sample's labels under the
   * counter's name; null for a sample that is neither.
   */
  static Labels key(String metric, Labels labels) {
    Rate r = BY_GAUGE.get(metric);
    String counter = r != null ? r.counter() : null;
    if (counter == null && BY_GAUGE.values().stream().anyMatch(g -> g.counter().equals(metric))) {
      counter = metric;
    }
    return counter == null ? null : labels.toBuilder().set("__name__", counter).build();
  }

  /** Whether {@code metric} is a gauge that states a counter's rate. */
  static boolean statesRate(String metric) {
    return BY_GAUGE.containsKey(metric);
  }

  /** The counter's growth per second that a gauge sample of {@code value} states. */
  static double perSecond(String gauge, double value) {
    return BY_GAUGE.get(gauge).perSecondPerUnit() * value;
  }
}
