package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.Workload;
import dev.infermon.simulator.nim.NimPage;
import dev.infermon.simulator.vllm.VllmMetrics;

/**
 * An NVIDIA NIM for LLMs server: one vLLM V0 engine behind NIM's OpenAI frontend, its page at
 * {@code /v1/metrics} ({@link #METRICS_PATH}) with NIM's subset of vLLM's V0 families without
 * prefix and NIM's own {@code request_failure_total} and {@code num_request_max} (capture
 * nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt). The engine counts what the simulated V0 engine
 * does ({@link VllmMetrics} with V0's buckets); the token histograms' buckets follow the 128k
 * context NIM serves Llama 3.1 with. Not thread-safe.
 */
public final class NimPod extends InferencePod {
  /**
   * Where NIM serves its Prometheus page (docs.nvidia.com/nim/large-language-models,
   * observability).
   */
  public static final String METRICS_PATH = "/v1/metrics";

  /** The release the inventory reports: the page of the 2024-10 capture. */
  static final String VERSION = "2024-10";

  /**
   * The context length of NIM's Llama 3.1 profiles (131072): the capture's token buckets are vLLM's
   * {@code build_1_2_5_buckets} of it, 1 to 100000.
   */
  public static final int CONTEXT_LENGTH = 131072;

  private VllmMetrics metrics;

  NimPod(
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
    // a restart starts every counter from zero
    metrics =
        new VllmMetrics(Math.max(CONTEXT_LENGTH, profile().params().maxModelLen()), true, false);
    return metrics;
  }

  /** The engine's counters (fresh after a restart). */
  public VllmMetrics metrics() {
    return metrics;
  }

  /**
   * {@code num_request_max}: the engine's max concurrent sequences, the cap running reaches (a
   * scenario's mis-set {@code max_num_seqs} lowers it).
   */
  public int maxRequests() {
    int own = engineParams().maxNumSeqs();
    int cap = scenario().effects().maxNumSeqsCap();
    return cap > 0 ? Math.min(cap, own) : own;
  }

  @Override
  String renderPage(double now) {
    return NimPage.render(
        new NimPage.View(
            profile().name(), metrics, engines().get(0).state(), maxRequests(), startEpoch(), now));
  }
}
