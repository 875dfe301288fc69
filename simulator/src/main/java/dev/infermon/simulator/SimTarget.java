package dev.infermon.simulator;

/** One scrape target of the fleet. Not thread-safe; the {@link Fleet} serialises access. */
abstract class SimTarget {
  private PodInfo info;

  SimTarget(PodInfo info) {
    this.info = info;
  }

  /** What the inventory says about this target. */
  public final PodInfo info() {
    return info;
  }

  /** Records the node the target was placed on. */
  final void placeOn(String node) {
    info = info.withNode(node);
  }

  /** Runs the target's model up to {@code epochSeconds}. */
  abstract void advanceTo(double epochSeconds);

  /** The page at {@code epochSeconds}, or null while the target is down. */
  abstract String render(double epochSeconds);

  /**
   * The error the endpoint answers instead of a page for good (not a restart), or null: a server
   * whose metrics are switched off.
   */
  Refusal refusal() {
    return null;
  }
}
