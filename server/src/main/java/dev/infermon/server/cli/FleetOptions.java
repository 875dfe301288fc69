package dev.infermon.server.cli;

import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.Scenario;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The simulated fleet's flags that {@code demo} and {@code simulate} share (a picocli mixin), so
 * the two commands spell, default and explain them alike: the fleet's size, models, scenario and
 * seed. {@code simulate} adds its finer ones (older releases, TP ranks, nodes' GPUs, ...).
 */
final class FleetOptions {
  @Option(names = "--vllm-pods", description = "Current V1 vLLM pods (default: ${DEFAULT-VALUE}).")
  int vllmPods = 3;

  @Option(names = "--sglang-pods", description = "SGLang pods (default: ${DEFAULT-VALUE}).")
  int sglangPods = 2;

  @Option(names = "--tgi-pods", description = "Hugging Face TGI pods (default: ${DEFAULT-VALUE}).")
  int tgiPods;

  @Option(
      names = "--llamacpp-pods",
      description = "llama.cpp llama-server pods, run with --metrics (default: ${DEFAULT-VALUE}).")
  int llamacppPods;

  @Option(
      names = "--llamacpp-without-metrics",
      description =
          "How many of the llama.cpp pods run without --metrics: their /metrics answers HTTP 501"
              + " (default: ${DEFAULT-VALUE}).")
  int llamacppWithoutMetrics;

  @Option(
      names = "--trtllm-pods",
      description =
          "TensorRT-LLM trtllm-serve pods, their page at /prometheus/metrics (default:"
              + " ${DEFAULT-VALUE}).")
  int trtllmPods;

  @Option(
      names = "--pd",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = "Add a vLLM and an SGLang prefill/decode pair (default: on; --no-pd: off).")
  boolean pd;

  @Option(names = "--nodes", description = "GPU nodes (default: as many as needed).")
  int nodes;

  @Option(
      names = "--amd-nodes",
      description =
          "How many GPU nodes (the first ones) hold AMD Instinct MI300X GPUs watched by AMD's"
              + " device-metrics-exporter instead of H100s and dcgm-exporter (default:"
              + " ${DEFAULT-VALUE}).")
  int amdNodes;

  @Option(
      names = "--models",
      split = ",",
      description = "Served model names, assigned round-robin (default: three built-in models).")
  List<String> models;

  @Option(
      names = "--scenario",
      description =
          "Starting scenario: healthy, saturated, kv-pressure, deferred-by-config,"
              + " idle-gpu-long-queue, long-prompts, slow-pod, error-spike, pod-restart (default:"
              + " ${DEFAULT-VALUE}).")
  String scenario = "healthy";

  @Option(names = "--seed", description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  /**
   * A fleet builder with these flags applied; the command adds its own and builds.
   *
   * @throws IllegalArgumentException for an unknown scenario
   */
  FleetConfig.Builder builder() {
    FleetConfig.Builder b =
        FleetConfig.builder()
            .seed(seed)
            .vllmPods(vllmPods)
            .sglangPods(sglangPods)
            .tgiPods(tgiPods)
            .llamacppPods(llamacppPods)
            .llamacppWithoutMetrics(llamacppWithoutMetrics)
            .trtllmPods(trtllmPods)
            .prefillDecode(pd)
            .nodes(nodes)
            .amdNodes(amdNodes)
            .scenario(Scenario.fromCliName(scenario));
    if (models != null) {
      b.models(models);
    }
    return b;
  }
}
