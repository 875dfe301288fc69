package dev.infermon.web.retrieval;

import java.util.List;
import java.util.Map;

/**
 * What {@code /api/v1/targets} needs from the scrape side (Prometheus's {@code TargetRetriever}).
 * The server adapts the scrape manager to it; the web module never sees scrape classes.
 *
 * <p>Threading: thread-safe; every call returns a fresh, immutable snapshot.
 */
public interface TargetRetriever {
  /** No scraping (tests, remote-only setups). */
  TargetRetriever NONE =
      new TargetRetriever() {
        @Override
        public Map<String, List<ActiveTarget>> activeTargets() {
          return Map.of();
        }

        @Override
        public Map<String, List<DroppedTarget>> droppedTargets() {
          return Map.of();
        }
      };

  /** Active targets by scrape pool. */
  Map<String, List<ActiveTarget>> activeTargets();

  /** Targets dropped by relabeling, by scrape pool. */
  Map<String, List<DroppedTarget>> droppedTargets();
}
