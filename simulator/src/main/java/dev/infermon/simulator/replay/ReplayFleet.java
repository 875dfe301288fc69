package dev.infermon.simulator.replay;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replayed captures as a fleet in time: at {@code startMillis} every page is its capture; later,
 * each target's advancing values have grown by their captured value per the target's uptime, at a
 * steady rate: {@code factor(t) = 1 + (t - start) / uptime}. Before the start the pages are the
 * captures. A page is a pure function of time, so scrapes at any instants in any order (a backfill,
 * a live server, a test) see the same values for the same instant.
 *
 * <p>Immutable and thread-safe.
 */
public final class ReplayFleet {
  private final List<ReplayTarget> targets;
  private final Map<String, ReplayTarget> byName = new HashMap<>();
  private final long startMillis;

  private ReplayFleet(List<ReplayTarget> targets, long startMillis) {
    this.targets = List.copyOf(targets);
    this.startMillis = startMillis;
    for (ReplayTarget t : this.targets) {
      if (byName.put(t.name(), t) != null) {
        throw new IllegalArgumentException(
            "two replayed targets are named \"" + t.name() + "\": give one another pod=... label");
      }
    }
  }

  /**
   * A fleet whose pages equal their captures at {@code startMillis}.
   *
   * @throws IllegalArgumentException for no targets or two with the same name
   */
  public static ReplayFleet of(List<ReplayTarget> targets, long startMillis) {
    if (targets == null || targets.isEmpty()) {
      throw new IllegalArgumentException("a replayed fleet needs at least one capture");
    }
    return new ReplayFleet(targets, startMillis);
  }

  /** The targets, in the order given. */
  public List<ReplayTarget> targets() {
    return targets;
  }

  /** The instant the pages equal their captures, epoch milliseconds. */
  public long startMillis() {
    return startMillis;
  }

  /**
   * The target named {@code name}.
   *
   * @throws IllegalArgumentException for an unknown name
   */
  public ReplayTarget target(String name) {
    ReplayTarget t = byName.get(name);
    if (t == null) {
      throw new IllegalArgumentException("unknown replayed target: \"" + name + "\"");
    }
    return t;
  }

  /** How much {@code target}'s advancing values have grown by {@code timeMillis} (1 at start). */
  public double factor(ReplayTarget target, long timeMillis) {
    long elapsed = Math.max(0, timeMillis - startMillis);
    return 1 + elapsed / (double) target.uptime().toMillis();
  }

  /** The page of target {@code name} at {@code timeMillis}. */
  public String render(String name, long timeMillis) {
    ReplayTarget t = target(name);
    return t.capture().render(factor(t, timeMillis), t.uptime());
  }

  /** Every page at {@code timeMillis}, by target name, in order. */
  public Map<String, String> snapshot(long timeMillis) {
    Map<String, String> pages = new LinkedHashMap<>();
    for (ReplayTarget t : targets) {
      pages.put(t.name(), t.capture().render(factor(t, timeMillis), t.uptime()));
    }
    return Collections.unmodifiableMap(pages);
  }
}
