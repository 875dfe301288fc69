package dev.infermon.server.runtime;

import dev.infermon.discovery.inference.InferenceDiscovery;
import dev.infermon.discovery.inference.InferenceTargets;
import dev.infermon.scrape.TargetRetriever;
import dev.infermon.scrape.TargetStatus;
import dev.infermon.web.retrieval.ActiveTarget;
import dev.infermon.web.retrieval.DroppedTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Shows the scrape manager to the web module's {@link dev.infermon.web.retrieval.TargetRetriever}:
 * the one place that knows both. Empty while no scrape manager runs. Thread-safe as the scrape
 * manager is.
 */
final class TargetsAdapter implements dev.infermon.web.retrieval.TargetRetriever {
  private final Supplier<TargetRetriever> scrape;

  TargetsAdapter(Supplier<TargetRetriever> scrape) {
    this.scrape = scrape;
  }

  @Override
  public Map<String, List<ActiveTarget>> activeTargets() {
    TargetRetriever s = scrape.get();
    Map<String, List<ActiveTarget>> out = new TreeMap<>();
    if (s == null) {
      return out;
    }
    for (Map.Entry<String, List<TargetStatus>> e : s.activeTargets().entrySet()) {
      List<ActiveTarget> list = new ArrayList<>();
      for (TargetStatus t : e.getValue()) {
        list.add(
            new ActiveTarget(
                t.discoveredLabels(),
                t.labels(),
                t.scrapePool(),
                t.scrapeUrl(),
                t.globalUrl(),
                lastError(t),
                t.lastWarning(),
                Optional.ofNullable(t.lastScrape()),
                t.lastScrapeDuration(),
                t.health().apiName(),
                t.scrapeInterval(),
                t.scrapeTimeout()));
      }
      out.put(e.getKey(), list);
    }
    return out;
  }

  /**
   * The error shown for a target: an inference target's 404 names the path scraped and the setting
   * that changes it ({@link InferenceTargets#explainError}); others are Prometheus's, as scraped.
   */
  static String lastError(TargetStatus t) {
    if (!InferenceDiscovery.INFERENCE_POOL.equals(t.scrapePool())) {
      return t.lastError();
    }
    return InferenceTargets.explainError(
        t.lastError(),
        t.scrapeUrl(),
        t.labels().get("backend"),
        t.discoveredLabels().get(InferenceTargets.METRICS_PATH_SETTING));
  }

  @Override
  public Map<String, List<DroppedTarget>> droppedTargets() {
    TargetRetriever s = scrape.get();
    Map<String, List<DroppedTarget>> out = new TreeMap<>();
    if (s == null) {
      return out;
    }
    for (Map.Entry<String, List<dev.infermon.scrape.DroppedTarget>> e :
        s.droppedTargets().entrySet()) {
      List<DroppedTarget> list = new ArrayList<>();
      for (dev.infermon.scrape.DroppedTarget t : e.getValue()) {
        list.add(new DroppedTarget(t.discoveredLabels()));
      }
      out.put(e.getKey(), list);
    }
    return out;
  }
}
