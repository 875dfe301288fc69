package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.Workload;
import dev.infermon.simulator.triton.TritonMetrics;
import dev.infermon.simulator.triton.TritonPage;

/**
 * A Triton Inference Server serving one LLM through the tensorrtllm backend's sample repository
 * (the {@code ensemble} of {@code preprocessing}, {@code tensorrt_llm} and {@code postprocessing}),
 * one executor (one engine) behind it; its page is the metrics port's ({@code :8002/metrics}), the
 * {@code tensorrt_llm} model at the backend's 0d5352f5 reporter. Not thread-safe.
 */
public final class TritonPod extends InferencePod {
  /** Triton's default metrics port (metrics.md: {@code --metrics-port}, 8002). */
  public static final int METRICS_PORT = 8002;

  private TritonMetrics metrics;

  TritonPod(
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
    metrics = new TritonMetrics(); // a restart reloads the models: every counter from zero
    return metrics;
  }

  @Override
  void enginesStarted() {
    metrics.sampleStateFrom(() -> engines().get(0).state());
  }

  /** The server's and the backend's counters (fresh after a restart). */
  public TritonMetrics metrics() {
    return metrics;
  }

  @Override
  String renderPage(double now) {
    // the runtime's GPU buffers grow with the token budget (a simulated size, not a source's)
    long runtimeGpu = (long) profile().params().maxBatchedTokens() * 196_608L;
    return TritonPage.render(
        new TritonPage.View(
            profile().params().maxNumSeqs(), runtimeGpu, 2_164_142_067_712L, metrics));
  }
}
