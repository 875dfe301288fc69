package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.Workload;
import dev.infermon.simulator.trtllm.TrtllmMetrics;
import dev.infermon.simulator.trtllm.TrtllmPage;

/**
 * A trtllm-serve run with {@code return_perf_metrics} and {@code enable_iter_perf_stats}: one
 * OpenAI server process in front of one executor (one engine), its Prometheus page at {@code
 * /prometheus/metrics} ({@link #METRICS_PATH}); {@code /metrics} is the server's JSON iteration
 * stats, not Prometheus text. Not thread-safe.
 */
public final class TrtllmPod extends InferencePod {
  /** Where trtllm-serve mounts its Prometheus page (openai_server.py {@code mount_metrics}). */
  public static final String METRICS_PATH = "/prometheus/metrics";

  /**
   * The server's {@code engine_type} label: the collector's own docstring example (collector.py at
   * 050f80de); before #12545 it was {@code undefined}.
   */
  static final String ENGINE_TYPE = "trtllm";

  private final int pid;
  private TrtllmMetrics metrics;

  TrtllmPod(
      PodInfo info,
      ModelProfile profile,
      long seed,
      LoadShape shape,
      String arrivalKey,
      Scenario scenario,
      double startEpoch) {
    super(info, profile, seed, shape, Workload.Phase.BOTH, arrivalKey, scenario, startEpoch);
    // the process id prometheus_client's multiprocess mode puts on every gauge
    this.pid = 100 + Math.floorMod(info.name().hashCode(), 900);
    start();
  }

  @Override
  EngineListener newListener(int index) {
    metrics = new TrtllmMetrics(); // a restart starts every counter from zero
    return metrics;
  }

  @Override
  void enginesStarted() {
    metrics.sampleStateFrom(() -> engines().get(0).state());
  }

  /** The server's counters (fresh after a restart). */
  public TrtllmMetrics metrics() {
    return metrics;
  }

  /** The process id on the page's gauges. */
  public int pid() {
    return pid;
  }

  /**
   * The label the 1.0 and 1.3 servers put on every series instead of the model and the engine type
   * (server @ 00057725).
   */
  public static final String UNDEFINED = "undefined";

  @Override
  String renderPage(double now) {
    // 1.0 and 1.3 hard-coded model_name and engine_type "undefined" (fixed by #12545, after 1.3)
    TrtllmPage.Release release = TrtllmPage.Release.of(info().version());
    boolean old = release != TrtllmPage.Release.MAIN;
    return TrtllmPage.render(
        new TrtllmPage.View(
            old ? UNDEFINED : info().model(),
            old ? UNDEFINED : ENGINE_TYPE,
            pid,
            profile().params().maxNumSeqs(),
            profile().params().maxBatchedTokens(),
            metrics,
            release));
  }
}
