package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.Workload;
import dev.infermon.simulator.tgi.TgiMetrics;
import dev.infermon.simulator.tgi.TgiPage;

/**
 * A Hugging Face TGI server: one router in front of its model shards (one engine), one page whose
 * buckets follow {@code --max-input-tokens} (the context length less one, TGI's default) and {@code
 * --max-total-tokens} (the context length). Not thread-safe.
 */
public final class TgiPod extends InferencePod {
  private TgiMetrics metrics;

  TgiPod(
      PodInfo info,
      ModelProfile profile,
      long seed,
      LoadShape shape,
      String arrivalKey,
      Scenario scenario,
      double startEpoch) {
    super(info, profile, seed, shape, Workload.Phase.BOTH, arrivalKey, scenario, startEpoch);
    start();
  }

  @Override
  EngineListener newListener(int index) {
    int maxTotal = profile().params().maxModelLen();
    metrics = new TgiMetrics(maxTotal - 1, maxTotal);
    return metrics;
  }

  @Override
  void enginesStarted() {
    metrics.sampleStateFrom(() -> engines().get(0).state());
  }

  /** The router's counters (fresh after a restart). */
  public TgiMetrics metrics() {
    return metrics;
  }

  @Override
  String renderPage(double now) {
    return TgiPage.render(metrics);
  }
}
