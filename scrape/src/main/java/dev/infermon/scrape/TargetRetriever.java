package dev.infermon.scrape;

import java.util.List;
import java.util.Map;

/**
 * What {@code /api/v1/targets} needs from the scrape side (Prometheus's {@code TargetRetriever}).
 *
 * <p>Threading: thread-safe; every call returns a fresh, immutable snapshot.
 */
public interface TargetRetriever {
  /** Active targets by scrape pool, pools sorted by name, targets by scrape URL. */
  Map<String, List<TargetStatus>> activeTargets();

  /** Targets dropped by relabeling, by scrape pool. */
  Map<String, List<DroppedTarget>> droppedTargets();
}
