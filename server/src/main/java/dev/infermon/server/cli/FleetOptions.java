package dev.infermon.server.cli;

import dev.infermon.simulator.Backend;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import dev.infermon.simulator.RouterKind;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.vllm.VllmSleep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The simulated fleet's flags that {@code demo} and {@code simulate} share (a picocli mixin), so
 * the two commands spell, default and explain them alike: the fleet's size, models, scenario and
 * seed, which engines run ({@code --engines}) and the router in front. {@code simulate} adds its
 * finer ones (older releases, TP ranks, nodes' GPUs, ...).
 */
final class FleetOptions {
  /**
   * The pod-count flags of each engine: given for an engine {@code --engines} leaves out, an error.
   */
  private static final Map<String, Backend> COUNT_FLAGS =
      Map.of(
          "--vllm-pods", Backend.VLLM,
          "--sglang-pods", Backend.SGLANG,
          "--tgi-pods", Backend.TGI,
          "--llamacpp-pods", Backend.LLAMACPP,
          "--llamacpp-without-metrics", Backend.LLAMACPP,
          "--trtllm-pods", Backend.TRTLLM,
          "--triton-pods", Backend.TRITON,
          "--nim-pods", Backend.NIM);

  @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--engines",
      split = ",",
      paramLabel = "ENGINE",
      description =
          "Run only these engines, each with at least one pod, and the routers in front of them"
              + " (llm-d's endpoint picker in front of vllm, SGLang's model gateway in front of"
              + " sglang): all (which adds an NVIDIA Dynamo deployment, vLLM workers behind"
              + " Dynamo's frontend), or a list of vllm, sglang, tgi, llamacpp, trtllm, triton,"
              + " nim."
              + " The prefill/decode pairs stay when both vllm and sglang are listed (default: the"
              + " flags' counts).")
  List<String> engines;

  @Option(
      names = "--router",
      description =
          "Serve routers' pages in front of the pods, a comma-separated list of production-stack"
              + " (vLLM production-stack's router, in front of the vLLM pods), smg (SGLang's model"
              + " gateway, in front of the SGLang pods), dynamo (NVIDIA Dynamo's frontend, in"
              + " front of the vLLM and SGLang pods and pairs those two do not front) and llm-d"
              + " (llm-d's EPP, in front of the vLLM and SGLang pods the others do not front), or"
              + " none; a pod has one router in"
              + " front (default: none; with --engines, llm-d for vllm and smg for sglang).")
  String router;

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
      names = "--triton-pods",
      description =
          "Triton Inference Server pods serving TensorRT-LLM through the tensorrtllm backend, their"
              + " page the metrics port's nv_trt_llm_* and nv_inference_* (default:"
              + " ${DEFAULT-VALUE}).")
  int tritonPods;

  @Option(
      names = "--nim-pods",
      description =
          "NVIDIA NIM for LLMs pods: vLLM's V0 names without prefix, NIM's subset and its own"
              + " request_failure_total and num_request_max, their page at /v1/metrics (default:"
              + " ${DEFAULT-VALUE}).")
  int nimPods;

  @Option(
      names = "--dynamo-pods",
      description =
          "vLLM workers (python -m dynamo.vllm, aggregated) of an NVIDIA Dynamo deployment of their"
              + " own, serving Qwen/Qwen3-8B, behind Dynamo's frontend when --router lists dynamo;"
              + " labelled as the Dynamo operator's workers: no backend label, role worker"
              + " (default: ${DEFAULT-VALUE}; --engines all: at least 2, with the frontend).")
  int dynamoPods;

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
      names = "--amd-partition",
      defaultValue = "spx",
      description =
          "The compute partition mode of the MI300X GPUs: spx (whole GPUs), dpx, qpx or cpx (2,"
              + " 4 or 8 partitions per GPU, each its own gpu_id, one per one-GPU pod) (default:"
              + " ${DEFAULT-VALUE}).")
  String amdPartition;

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

  @Option(
      names = "--sleeping-vllm-pods",
      description =
          "Put the first N current vLLM pods to sleep (vLLM sleep mode) for --sleep-for, starting"
              + " --sleep-after into the run: they admit nothing and their page reads"
              + " engine_sleep_state (default: ${DEFAULT-VALUE}).")
  int sleepingVllmPods;

  @Option(
      names = "--sleep-level",
      description =
          "The sleep level: 1 offloads the weights to CPU and discards the KV cache, 2 discards"
              + " both (default: ${DEFAULT-VALUE}).")
  int sleepLevel = 1;

  @Option(
      names = "--sleep-after",
      converter = SimulateCommand.DurationConverter.class,
      description = "When the sleeping pods fall asleep, after the start (default: 2m).")
  Duration sleepAfter = Duration.ofMinutes(2);

  @Option(
      names = "--sleep-for",
      converter = SimulateCommand.DurationConverter.class,
      description = "How long they sleep before waking (default: 10m).")
  Duration sleepFor = Duration.ofMinutes(10);

  /**
   * A fleet builder with these flags applied; the command adds its own and builds.
   *
   * @throws IllegalArgumentException for an unknown scenario
   */
  FleetConfigBuilder builder() {
    FleetConfigBuilder b =
        FleetConfig.builder()
            .seed(seed)
            .vllmPods(vllmPods)
            .sglangPods(sglangPods)
            .tgiPods(tgiPods)
            .llamacppPods(llamacppPods)
            .llamacppWithoutMetrics(llamacppWithoutMetrics)
            .trtllmPods(trtllmPods)
            .tritonPods(tritonPods)
            .nimPods(nimPods)
            .dynamoPods(dynamoPods)
            .prefillDecode(pd)
            .nodes(nodes)
            .amdNodes(amdNodes)
            .amdPartition(dev.infermon.simulator.amdgpu.AmdPartition.parse(amdPartition))
            .scenario(Scenario.fromCliName(scenario));
    if (sleepingVllmPods != 0) {
      b.vllmSleep(
          new VllmSleep(
              sleepingVllmPods,
              sleepLevel,
              sleepAfter.toMillis() / 1000.0,
              sleepFor.toMillis() / 1000.0));
    }
    if (models != null) {
      b.models(models);
    }
    Set<Backend> listed = engines();
    if (!listed.isEmpty()) {
      refuseCountsOfUnlisted(listed);
      b.engines(listed);
    }
    if (router == null) {
      b.routers(RouterKind.forEngines(listed));
      return b;
    }
    try {
      b.routers(RouterKind.parseList(router));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--router: " + e.getMessage(), e);
    }
    return b;
  }

  /**
   * The engines {@code --engines} names ({@code all}: every simulated one), empty without it.
   *
   * @throws IllegalArgumentException naming an unknown engine and the known ones
   */
  Set<Backend> engines() {
    Set<Backend> out = new LinkedHashSet<>();
    if (engines == null) {
      return out;
    }
    for (String e : engines) {
      if (e.trim().equalsIgnoreCase("all")) {
        out.addAll(Backend.engines());
      } else {
        try {
          out.add(Backend.engine(e));
        } catch (IllegalArgumentException bad) {
          throw new IllegalArgumentException("--engines: " + bad.getMessage(), bad);
        }
      }
    }
    return out;
  }

  /**
   * A pod count given for an engine that {@code --engines} leaves out would be dropped silently.
   */
  private void refuseCountsOfUnlisted(Set<Backend> listed) {
    if (mixee == null || mixee.commandLine() == null) {
      return;
    }
    CommandLine.ParseResult parsed = mixee.commandLine().getParseResult();
    List<String> given = new ArrayList<>();
    COUNT_FLAGS.forEach(
        (flag, engine) -> {
          if (parsed != null && parsed.hasMatchedOption(flag) && !listed.contains(engine)) {
            given.add(flag);
          }
        });
    if (!given.isEmpty()) {
      java.util.Collections.sort(given);
      throw new IllegalArgumentException(
          String.join(", ", given) + " given, but --engines does not list that engine");
    }
  }
}
