package dev.infermon.simulator;

import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.sglang.SglangRelease;
import dev.infermon.simulator.vllm.VllmRelease;
import dev.infermon.simulator.vllm.VllmSleep;
import java.util.List;

/**
 * What fleet to simulate. {@link #defaults()} is a small but complete fleet: three current vLLM
 * pods (one data-parallel with two engines), one older-release vLLM pod, two SGLang pods (TP 2),
 * one SGLang gateway, a vLLM and an SGLang prefill/decode pair, three models, and enough 8-GPU
 * nodes for all of it plus unattributed spare GPUs.
 *
 * @param seed seeds every random draw: the same config and seed give the same pages
 * @param vllmPods current V1 vLLM pods
 * @param legacyVllmPods older-release vLLM pods
 * @param legacyRelease the release the older pods run
 * @param dataParallelPods how many of the current vLLM pods run two data-parallel engines
 * @param sglangPods SGLang server pods ({@code sglang:} names)
 * @param sglangTensorParallel TP ranks of each SGLang server (each reports its scheduler series)
 * @param sglangGatewayPods pods served through the SGLang gateway ({@code sglang_} names)
 * @param tgiPods Hugging Face TGI pods ({@code tgi_} names; none by default)
 * @param llamacppPods llama.cpp llama-server pods ({@code llamacpp:} names, {@code --metrics} on);
 *     none by default
 * @param llamacppWithoutMetrics how many of the llama.cpp pods run without {@code --metrics} (the
 *     last ones): their {@code /metrics} answers HTTP 501
 * @param prefillDecode whether to add one vLLM and one SGLang prefill/decode pair
 * @param models served model names, assigned round-robin (built-in profiles or the 8B profile)
 * @param nodes GPU nodes (0 = as many as the pods need, plus one spare GPU)
 * @param gpusPerNode GPUs on each node
 * @param namespace the Kubernetes namespace of the inference pods
 * @param scenario the scenario every inference pod starts in
 * @param smProfilingFields whether dcgm-exporter's CSV enables SM active and SM occupancy
 * @param speculativeTokens the current vLLM pods' {@code --speculative-config}
 *     num_speculative_tokens, 0 (the default) for no speculative decoding
 * @param dcgmNodeLabel how dcgm-exporter spells its node label: {@code Hostname} through release
 *     4.5.3-4.8.2, {@code hostname} on main since NVIDIA/dcgm-exporter#655 (d5e5f51)
 * @param lora the LoRA adapters ({@code --enable-lora}, {@code --max-loras}) of the vLLM pods with
 *     one engine (current and, unless it is 0.4.3, older-release pods; vLLM has no LoRA with
 *     data-parallel engines in one logger) and of the SGLang server and gateway pods ({@code
 *     --max-loras-per-batch}; not the PD pairs), {@link LoraAdapters#NONE} (the default) for none
 * @param mfu whether the current vLLM pods run with {@code --enable-mfu-metrics}: their FLOPs and
 *     memory-traffic counters then grow with the work they do (else they stay 0, as vLLM's do)
 * @param dcgmAttribution how dcgm-exporter attributes GPUs: whole GPUs through the device plugin
 *     (the default), one-GPU pods on MIG instances, or DRA claims
 * @param trtllmPods TensorRT-LLM trtllm-serve pods ({@code trtllm_} names at {@code
 *     /prometheus/metrics}); none by default
 * @param trtllmRelease13 how many of the TensorRT-LLM pods (the last ones) run 1.3, whose page has
 *     the five request families and the KV-cache ones, every series labelled {@code
 *     model_name="undefined"}
 * @param trtllmRelease10 how many of the TensorRT-LLM pods (the last ones, after the 1.3 ones) run
 *     1.0, the first, unprefixed generation (collector.py @ 89fd9b74): the five request families
 *     without the {@code trtllm_} prefix, every series labelled {@code model_name} and {@code
 *     engine_type} {@code "undefined"}, no gauge
 * @param tritonPods Triton Inference Server pods serving TensorRT-LLM through the tensorrtllm
 *     backend ({@code nv_trt_llm_*} and {@code nv_inference_*} at {@code :8002/metrics}); none by
 *     default
 * @param nimPods NVIDIA NIM for LLMs pods (vLLM's V0 names without prefix, NIM's subset and its own
 *     {@code request_failure_total} and {@code num_request_max}, at {@code /v1/metrics}); none by
 *     default
 * @param routers the routers served in front of the pods ({@code simulate --router}), each listed
 *     once, none by default. A pod has one router in front: the engine's own router when it is
 *     listed (production-stack for the vLLM pods, smg for the SGLang pods and, with its PD router,
 *     the SGLang prefill/decode pair), else llm-d's EPP when it is; with several listed, each must
 *     front a pod
 * @param nixl whether the vLLM prefill/decode pair moves KV over the NIXL connector (the default):
 *     its pages then have the {@code vllm:nixl_*} families
 * @param kvCacheMetrics whether the current vLLM pods run with {@code --kv-cache-metrics} (off by
 *     default): their pages then have the KV block residency histograms
 * @param lmcachePods how many of the current single-engine vLLM pods (the first ones) run LMCache
 *     (LMCacheConnectorV1, PROMETHEUS_MULTIPROC_DIR set): their pages then carry LMCache's {@code
 *     lmcache:*} families; 0 (the default) for none
 * @param amdNodes how many of the GPU nodes (the first ones, which pods fill first) hold AMD
 *     Instinct MI300X GPUs watched by AMD's device-metrics-exporter instead of H100s watched by
 *     dcgm-exporter; 0 (the default) for none. Refused with MIG or DRA attribution, which are
 *     NVIDIA's
 * @param amdPartition the compute partition mode of those MI300X GPUs ({@code simulate
 *     --amd-partition}): under DPX, QPX or CPX each physical GPU is 2, 4 or 8 partitions, each its
 *     own {@code gpu_id}, and a one-GPU pod holds one partition; {@link
 *     dev.infermon.simulator.amdgpu.AmdPartition#SPX} (the default) for whole GPUs
 * @param vllmSleep which current vLLM pods sleep (vLLM sleep mode), at which level and when; {@link
 *     VllmSleep#NONE} (the default) for none
 * @param dynamoPods the vLLM workers ({@code python -m dynamo.vllm}, aggregated) of an NVIDIA
 *     Dynamo deployment of its own, serving {@link #DYNAMO_MODEL} behind Dynamo's frontend when
 *     {@code dynamo} is among the routers (the frontend then fronts them alone); labelled as
 *     inference discovery labels the operator's workers: no {@code backend}, role {@code worker}; 0
 *     (the default) for none
 * @param sglangRelease the release line every SGLang server runs (direct, behind the gateway and in
 *     the prefill/decode pair): {@link SglangRelease#V0_5_9} (the default) or 0.5.11
 */
public record FleetConfig(
    long seed,
    int vllmPods,
    int legacyVllmPods,
    VllmRelease legacyRelease,
    int dataParallelPods,
    int sglangPods,
    int sglangTensorParallel,
    int sglangGatewayPods,
    int tgiPods,
    int llamacppPods,
    int llamacppWithoutMetrics,
    boolean prefillDecode,
    List<String> models,
    int nodes,
    int gpusPerNode,
    String namespace,
    Scenario scenario,
    boolean smProfilingFields,
    int speculativeTokens,
    String dcgmNodeLabel,
    LoraAdapters lora,
    boolean mfu,
    DcgmAttribution dcgmAttribution,
    int trtllmPods,
    int trtllmRelease13,
    int trtllmRelease10,
    int tritonPods,
    int nimPods,
    List<RouterKind> routers,
    boolean nixl,
    boolean kvCacheMetrics,
    int lmcachePods,
    int amdNodes,
    dev.infermon.simulator.amdgpu.AmdPartition amdPartition,
    VllmSleep vllmSleep,
    SglangRelease sglangRelease,
    int dynamoPods) {

  /**
   * The model the Dynamo deployment's workers serve: one no other pod of the fleet serves by
   * default, so its model view is the deployment's alone.
   */
  public static final String DYNAMO_MODEL = "Qwen/Qwen3-8B";

  /** Validates every field; names the first bad one. */
  public FleetConfig {
    if (!"Hostname".equals(dcgmNodeLabel) && !"hostname".equals(dcgmNodeLabel)) {
      throw new IllegalArgumentException(
          "dcgmNodeLabel must be Hostname or hostname, got " + dcgmNodeLabel);
    }
    nonNegative("vllmPods", vllmPods);
    nonNegative("legacyVllmPods", legacyVllmPods);
    nonNegative("dataParallelPods", dataParallelPods);
    nonNegative("lmcachePods", lmcachePods);
    nonNegative("sglangPods", sglangPods);
    nonNegative("sglangGatewayPods", sglangGatewayPods);
    nonNegative("tgiPods", tgiPods);
    nonNegative("llamacppPods", llamacppPods);
    nonNegative("llamacppWithoutMetrics", llamacppWithoutMetrics);
    nonNegative("trtllmPods", trtllmPods);
    nonNegative("trtllmRelease13", trtllmRelease13);
    nonNegative("trtllmRelease10", trtllmRelease10);
    nonNegative("tritonPods", tritonPods);
    nonNegative("nimPods", nimPods);
    nonNegative("dynamoPods", dynamoPods);
    if (trtllmRelease13 + trtllmRelease10 > trtllmPods) {
      throw new IllegalArgumentException(
          "trtllmRelease13 + trtllmRelease10 ("
              + trtllmRelease13
              + " + "
              + trtllmRelease10
              + ") exceeds trtllmPods ("
              + trtllmPods
              + ")");
    }
    if (llamacppWithoutMetrics > llamacppPods) {
      throw new IllegalArgumentException(
          "llamacppWithoutMetrics ("
              + llamacppWithoutMetrics
              + ") exceeds llamacppPods ("
              + llamacppPods
              + ")");
    }
    nonNegative("nodes", nodes);
    nonNegative("amdNodes", amdNodes);
    if (nodes > 0 && amdNodes > nodes) {
      throw new IllegalArgumentException(
          "amdNodes (" + amdNodes + ") exceeds nodes (" + nodes + ")");
    }
    if (amdPartition == null) {
      throw new IllegalArgumentException("amdPartition is null");
    }
    if (amdNodes > 0 && dcgmAttribution != null && dcgmAttribution.isMig()) {
      throw new IllegalArgumentException("amdNodes needs whole GPUs: MIG is NVIDIA's");
    }
    if (amdNodes > 0 && dcgmAttribution != null && dcgmAttribution.dra()) {
      throw new IllegalArgumentException(
          "amdNodes with DRA attribution is not simulated: AMD's exporter attributes through the"
              + " kubelet's pod-resources API");
    }
    if (dataParallelPods > vllmPods) {
      throw new IllegalArgumentException(
          "dataParallelPods (" + dataParallelPods + ") exceeds vllmPods (" + vllmPods + ")");
    }
    // after the data-parallel check, so the single-engine pods counted are never negative
    if (lmcachePods > vllmPods - dataParallelPods) {
      throw new IllegalArgumentException(
          "lmcachePods must be at most the single-engine vLLM pods ("
              + (vllmPods - dataParallelPods)
              + "), got "
              + lmcachePods);
    }
    if (sglangTensorParallel < 1 || sglangTensorParallel > 8) {
      throw new IllegalArgumentException(
          "sglangTensorParallel must be in [1, 8], got " + sglangTensorParallel);
    }
    if (gpusPerNode < 1 || gpusPerNode > 16) {
      throw new IllegalArgumentException("gpusPerNode must be in [1, 16], got " + gpusPerNode);
    }
    if (speculativeTokens < 0 || speculativeTokens > 16) {
      throw new IllegalArgumentException(
          "speculativeTokens must be in [0, 16], got " + speculativeTokens);
    }
    if (legacyRelease == null
        || scenario == null
        || lora == null
        || dcgmAttribution == null
        || routers == null
        || sglangRelease == null) {
      throw new IllegalArgumentException(
          "legacyRelease, scenario, lora, dcgmAttribution, routers and sglangRelease must not be"
              + " null");
    }
    routers = List.copyOf(routers);
    if (routers.contains(RouterKind.NONE)
        || new java.util.HashSet<>(routers).size() < routers.size()) {
      throw new IllegalArgumentException(
          "routers must list each router once and not none, got " + routers);
    }
    if (vllmSleep == null || vllmSleep.pods() > vllmPods) {
      throw new IllegalArgumentException(
          "vllmSleep must not be null nor put more than the " + vllmPods + " vLLM pods to sleep");
    }
    if (legacyRelease == VllmRelease.V1_CURRENT) {
      throw new IllegalArgumentException("legacyRelease must be an older release, got v1-current");
    }
    if (models == null || models.isEmpty()) {
      throw new IllegalArgumentException("at least one model is needed");
    }
    for (String m : models) {
      if (m == null || m.isBlank() || m.indexOf('"') >= 0 || m.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("bad model name: \"" + m + "\"");
      }
    }
    models = List.copyOf(models);
    if (namespace == null || !namespace.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")) {
      throw new IllegalArgumentException("namespace is not a DNS label: \"" + namespace + "\"");
    }
    int pods =
        vllmPods
            + legacyVllmPods
            + sglangPods
            + sglangGatewayPods
            + tgiPods
            + llamacppPods
            + trtllmPods
            + tritonPods
            + nimPods
            + dynamoPods
            + (prefillDecode ? 4 : 0);
    if (pods == 0) {
      throw new IllegalArgumentException("the fleet has no inference pod");
    }
  }

  private static void nonNegative(String name, int v) {
    if (v < 0) {
      throw new IllegalArgumentException(name + " must be >= 0, got " + v);
    }
  }

  /** The default fleet. */
  public static FleetConfig defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static FleetConfigBuilder builder() {
    return new FleetConfigBuilder();
  }

  /** A builder starting from this config. */
  public FleetConfigBuilder toBuilder() {
    return FleetConfigBuilder.from(this);
  }
}
