package dev.infermon.simulator;

import dev.infermon.simulator.llamacpp.LlamacppMetrics;
import dev.infermon.simulator.llamacpp.LlamacppPage;
import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.EngineParams;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.Workload;

/**
 * A llama-server run with {@code --metrics} and {@code --parallel} {@link #SLOTS}: one process, one
 * model, one engine whose batch never holds more than its slots; the rest wait as deferred tasks.
 * Not thread-safe.
 */
public final class LlamacppPod extends InferencePod {
  /** The server's {@code --parallel} slots. */
  public static final int SLOTS = 4;

  private LlamacppMetrics metrics;

  LlamacppPod(
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
  EngineParams engineParams() {
    EngineParams p = super.engineParams();
    return new EngineParams(
        p.numGpuBlocks(),
        p.blockSize(),
        SLOTS,
        p.maxBatchedTokens(),
        p.maxModelLen(),
        p.cpuOverhead(),
        p.gpuBase(),
        p.prefillPerToken(),
        p.decodePerSeq(),
        p.attentionPerKvToken(),
        p.transferPerToken());
  }

  @Override
  EngineListener newListener(int index) {
    metrics = new LlamacppMetrics(); // a restart starts every counter from zero
    return metrics;
  }

  @Override
  void enginesStarted() {
    metrics.sampleStateFrom(() -> engines().get(0).state());
  }

  /** The server's counters (fresh after a restart). */
  public LlamacppMetrics metrics() {
    return metrics;
  }

  @Override
  String renderPage(double now) {
    return LlamacppPage.render(metrics);
  }
}
