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

  /** The handler's answer without {@code --metrics} (format_error_response, not_supported). */
  static final Refusal METRICS_OFF =
      new Refusal(
          501,
          "application/json; charset=utf-8",
          "{\"error\":{\"code\":501,\"message\":\"This server does not support metrics"
              + " endpoint. Start it with `--metrics`\",\"type\":\"not_supported_error\"}}");

  private final boolean metricsFlag;
  private LlamacppMetrics metrics;

  LlamacppPod(
      PodInfo info,
      ModelProfile profile,
      long seed,
      LoadShape shape,
      String arrivalKey,
      Scenario scenario,
      double startEpoch,
      boolean metricsFlag) {
    super(info, profile, seed, shape, Workload.Phase.BOTH, arrivalKey, scenario, startEpoch);
    this.metricsFlag = metricsFlag;
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

  /** Whether the server runs with {@code --metrics}. */
  public boolean metricsFlag() {
    return metricsFlag;
  }

  @Override
  Refusal refusal() {
    return metricsFlag ? null : METRICS_OFF;
  }

  @Override
  String renderPage(double now) {
    return metricsFlag ? LlamacppPage.render(metrics) : null;
  }
}
