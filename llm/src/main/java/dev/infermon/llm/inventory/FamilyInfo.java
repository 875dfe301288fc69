package dev.infermon.llm.inventory;

import dev.infermon.model.metadata.MetricType;
import java.util.List;
import java.util.Set;

/**
 * What a target exposes for one metric family: its type (UNKNOWN when only samples were seen), the
 * label names of its series (without {@code __name__} and {@code le}), a histogram's finite bucket
 * bounds in increasing order, and what its samples did in the inventory's window.
 */
public record FamilyInfo(
    String name, MetricType type, Set<String> labelNames, List<Double> bounds, Activity activity) {
  /**
   * What a family's samples did in the window: "no traffic" is true only of {@link #ZERO} and
   * {@link #FLAT} families (counters that did not advance, gauges that held), never of {@link
   * #CHANGING} ones; one page ({@link #UNKNOWN}) cannot tell.
   */
  public enum Activity {
    /**
     * Not read: a single live page, or a stored family whose activity nothing reads (no engine's
     * signal has it as a source), so the inventory does not select its samples over time.
     */
    UNKNOWN,
    /** Every sample of every series was 0. */
    ZERO,
    /** No series changed, and some is not 0 (a counter that once counted, a held gauge). */
    FLAT,
    /** Some series changed. */
    CHANGING;

    /** Whether the samples show the engine has done work: anything not 0 or moving. */
    public boolean nonZero() {
      return this == FLAT || this == CHANGING;
    }
  }

  public FamilyInfo {
    labelNames = Set.copyOf(labelNames);
    bounds = List.copyOf(bounds);
    if (activity == null) {
      throw new IllegalArgumentException("activity is required (UNKNOWN when not read)");
    }
  }

  /** A family whose samples were not read over time. */
  public FamilyInfo(String name, MetricType type, Set<String> labelNames, List<Double> bounds) {
    this(name, type, labelNames, bounds, Activity.UNKNOWN);
  }
}
