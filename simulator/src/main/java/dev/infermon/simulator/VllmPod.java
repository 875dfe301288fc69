package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.Workload;
import dev.infermon.simulator.vllm.VllmMetrics;
import dev.infermon.simulator.vllm.VllmPage;
import dev.infermon.simulator.vllm.VllmRelease;
import java.util.ArrayList;
import java.util.List;

/** A vLLM server: one engine core per data-parallel rank, one page. Not thread-safe. */
public final class VllmPod extends InferencePod {
  private final VllmRelease release;
  private final int speculativeTokens;
  private final List<VllmMetrics> metrics = new ArrayList<>();

  VllmPod(
      PodInfo info,
      VllmRelease release,
      ModelProfile profile,
      long seed,
      LoadShape shape,
      Workload.Phase phase,
      String arrivalKey,
      Scenario scenario,
      double startEpoch,
      int speculativeTokens) {
    super(info, profile, seed, shape, phase, arrivalKey, scenario, startEpoch);
    this.release = release;
    this.speculativeTokens = speculativeTokens;
    start();
  }

  @Override
  EngineListener newListener(int index) {
    if (index == 0) {
      metrics.clear(); // a restart starts every counter from zero
    }
    VllmMetrics m =
        new VllmMetrics(
            profile().params().maxModelLen(),
            release.isV0(),
            info().role().equals("decode"),
            speculativeTokens);
    metrics.add(m);
    return m;
  }

  /** The release whose page this pod serves. */
  public VllmRelease release() {
    return release;
  }

  /** The counters of engine {@code index} (its {@code engine} label). */
  public VllmMetrics metrics(int index) {
    return metrics.get(index);
  }

  @Override
  String renderPage(double now) {
    List<VllmPage.Engine> views = new ArrayList<>();
    List<EngineModel> engines = engines();
    for (int i = 0; i < engines.size(); i++) {
      views.add(new VllmPage.Engine(i, metrics.get(i), engines.get(i).state()));
    }
    return VllmPage.render(
        new VllmPage.View(release, profile().name(), views, engineParams(), startEpoch(), now));
  }
}
