package dev.infermon.simulator;

import dev.infermon.simulator.model.LoraAdapters;
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
 * @param router the router served in front of the pods ({@code simulate --router}), {@link
 *     RouterKind#NONE} (the default) for none
 * @param nixl whether the vLLM prefill/decode pair moves KV over the NIXL connector (the default):
 *     its pages then have the {@code vllm:nixl_*} families
 * @param kvCacheMetrics whether the current vLLM pods run with {@code --kv-cache-metrics} (off by
 *     default): their pages then have the KV block residency histograms
 * @param amdNodes how many of the GPU nodes (the first ones, which pods fill first) hold AMD
 *     Instinct MI300X GPUs watched by AMD's device-metrics-exporter instead of H100s watched by
 *     dcgm-exporter; 0 (the default) for none. Refused with MIG or DRA attribution, which are
 *     NVIDIA's
 * @param vllmSleep which current vLLM pods sleep (vLLM sleep mode), at which level and when; {@link
 *     VllmSleep#NONE} (the default) for none
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
    RouterKind router,
    boolean nixl,
    boolean kvCacheMetrics,
    int amdNodes,
    VllmSleep vllmSleep) {

  /** Validates every field; names the first bad one. */
  public FleetConfig {
    if (!"Hostname".equals(dcgmNodeLabel) && !"hostname".equals(dcgmNodeLabel)) {
      throw new IllegalArgumentException(
          "dcgmNodeLabel must be Hostname or hostname, got " + dcgmNodeLabel);
    }
    nonNegative("vllmPods", vllmPods);
    nonNegative("legacyVllmPods", legacyVllmPods);
    nonNegative("dataParallelPods", dataParallelPods);
    nonNegative("sglangPods", sglangPods);
    nonNegative("sglangGatewayPods", sglangGatewayPods);
    nonNegative("tgiPods", tgiPods);
    nonNegative("llamacppPods", llamacppPods);
    nonNegative("llamacppWithoutMetrics", llamacppWithoutMetrics);
    nonNegative("trtllmPods", trtllmPods);
    nonNegative("trtllmRelease13", trtllmRelease13);
    if (trtllmRelease13 > trtllmPods) {
      throw new IllegalArgumentException(
          "trtllmRelease13 (" + trtllmRelease13 + ") exceeds trtllmPods (" + trtllmPods + ")");
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
        || router == null) {
      throw new IllegalArgumentException(
          "legacyRelease, scenario, lora, dcgmAttribution and router must not be null");
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
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this config. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.seed = seed;
    b.vllmPods = vllmPods;
    b.legacyVllmPods = legacyVllmPods;
    b.legacyRelease = legacyRelease;
    b.dataParallelPods = dataParallelPods;
    b.dataParallelSet = true;
    b.sglangPods = sglangPods;
    b.sglangTensorParallel = sglangTensorParallel;
    b.sglangGatewayPods = sglangGatewayPods;
    b.tgiPods = tgiPods;
    b.llamacppPods = llamacppPods;
    b.llamacppWithoutMetrics = llamacppWithoutMetrics;
    b.prefillDecode = prefillDecode;
    b.models = models;
    b.nodes = nodes;
    b.gpusPerNode = gpusPerNode;
    b.namespace = namespace;
    b.scenario = scenario;
    b.smProfilingFields = smProfilingFields;
    b.speculativeTokens = speculativeTokens;
    b.dcgmNodeLabel = dcgmNodeLabel;
    b.lora = lora;
    b.mfu = mfu;
    b.dcgmAttribution = dcgmAttribution;
    b.trtllmPods = trtllmPods;
    b.trtllmRelease13 = trtllmRelease13;
    b.router = router;
    b.nixl = nixl;
    b.kvCacheMetrics = kvCacheMetrics;
    b.amdNodes = amdNodes;
    b.vllmSleep = vllmSleep;
    return b;
  }

  /** Builds a {@link FleetConfig}; every setter has a default. Not thread-safe. */
  public static final class Builder {
    private long seed = 42;
    private int vllmPods = 3;
    private int legacyVllmPods = 1;
    private VllmRelease legacyRelease = VllmRelease.V0_11;
    private int dataParallelPods = 1;
    private boolean dataParallelSet;
    private int sglangPods = 2;
    private int sglangTensorParallel = 2;
    private int sglangGatewayPods = 1;
    private int tgiPods;
    private int llamacppPods;
    private int llamacppWithoutMetrics;
    private int trtllmPods;
    private int trtllmRelease13;
    private boolean prefillDecode = true;
    private List<String> models =
        List.of(
            ModelProfile.LLAMA_8B.name(),
            ModelProfile.QWEN_32B.name(),
            ModelProfile.LLAMA_70B.name());
    private int nodes;
    private int gpusPerNode = 8;
    private String namespace = "inference";
    private Scenario scenario = Scenario.HEALTHY;
    private boolean smProfilingFields = true;
    private int speculativeTokens;
    private String dcgmNodeLabel = "Hostname";
    private int amdNodes;
    private LoraAdapters lora = LoraAdapters.NONE;
    private boolean mfu;
    private DcgmAttribution dcgmAttribution = DcgmAttribution.DEVICE_PLUGIN;
    private RouterKind router = RouterKind.NONE;
    private boolean nixl = true;
    private boolean kvCacheMetrics;
    private VllmSleep vllmSleep = VllmSleep.NONE;

    private Builder() {}

    /**
     * @see FleetConfig#seed()
     */
    public Builder seed(long v) {
      seed = v;
      return this;
    }

    /**
     * @see FleetConfig#vllmPods()
     */
    public Builder vllmPods(int v) {
      vllmPods = v;
      return this;
    }

    /**
     * @see FleetConfig#legacyVllmPods()
     */
    public Builder legacyVllmPods(int v) {
      legacyVllmPods = v;
      return this;
    }

    /**
     * @see FleetConfig#legacyRelease()
     */
    public Builder legacyRelease(VllmRelease v) {
      legacyRelease = v;
      return this;
    }

    /**
     * @see FleetConfig#dataParallelPods()
     */
    public Builder dataParallelPods(int v) {
      dataParallelPods = v;
      dataParallelSet = true;
      return this;
    }

    /**
     * @see FleetConfig#sglangPods()
     */
    public Builder sglangPods(int v) {
      sglangPods = v;
      return this;
    }

    /**
     * @see FleetConfig#sglangTensorParallel()
     */
    public Builder sglangTensorParallel(int v) {
      sglangTensorParallel = v;
      return this;
    }

    /**
     * @see FleetConfig#sglangGatewayPods()
     */
    public Builder sglangGatewayPods(int v) {
      sglangGatewayPods = v;
      return this;
    }

    /**
     * @see FleetConfig#tgiPods()
     */
    public Builder tgiPods(int v) {
      tgiPods = v;
      return this;
    }

    /**
     * @see FleetConfig#trtllmRelease13()
     */
    public Builder trtllmRelease13(int v) {
      trtllmRelease13 = v;
      return this;
    }

    /**
     * @see FleetConfig#trtllmPods()
     */
    public Builder trtllmPods(int v) {
      trtllmPods = v;
      return this;
    }

    /**
     * @see FleetConfig#llamacppPods()
     */
    public Builder llamacppPods(int v) {
      llamacppPods = v;
      return this;
    }

    /**
     * @see FleetConfig#llamacppWithoutMetrics()
     */
    public Builder llamacppWithoutMetrics(int v) {
      llamacppWithoutMetrics = v;
      return this;
    }

    /**
     * @see FleetConfig#prefillDecode()
     */
    public Builder prefillDecode(boolean v) {
      prefillDecode = v;
      return this;
    }

    /**
     * @see FleetConfig#models()
     */
    public Builder models(List<String> v) {
      models = v;
      return this;
    }

    /**
     * @see FleetConfig#nodes()
     */
    public Builder nodes(int v) {
      nodes = v;
      return this;
    }

    /**
     * @see FleetConfig#gpusPerNode()
     */
    public Builder gpusPerNode(int v) {
      gpusPerNode = v;
      return this;
    }

    /**
     * @see FleetConfig#namespace()
     */
    public Builder namespace(String v) {
      namespace = v;
      return this;
    }

    /**
     * @see FleetConfig#scenario()
     */
    public Builder scenario(Scenario v) {
      scenario = v;
      return this;
    }

    /**
     * @see FleetConfig#smProfilingFields()
     */
    public Builder smProfilingFields(boolean v) {
      smProfilingFields = v;
      return this;
    }

    /**
     * @see FleetConfig#speculativeTokens()
     */
    public Builder speculativeTokens(int v) {
      speculativeTokens = v;
      return this;
    }

    /**
     * @see FleetConfig#lora()
     */
    public Builder lora(LoraAdapters v) {
      lora = v;
      return this;
    }

    /**
     * @see FleetConfig#mfu()
     */
    public Builder mfu(boolean v) {
      mfu = v;
      return this;
    }

    /**
     * @see FleetConfig#nixl()
     */
    public Builder nixl(boolean v) {
      nixl = v;
      return this;
    }

    /**
     * @see FleetConfig#kvCacheMetrics()
     */
    public Builder kvCacheMetrics(boolean v) {
      kvCacheMetrics = v;
      return this;
    }

    /**
     * @see FleetConfig#vllmSleep()
     */
    public Builder vllmSleep(VllmSleep v) {
      vllmSleep = v;
      return this;
    }

    /**
     * @see FleetConfig#router()
     */
    public Builder router(RouterKind v) {
      router = v;
      return this;
    }

    /**
     * @see FleetConfig#dcgmNodeLabel()
     */
    public Builder dcgmNodeLabel(String v) {
      dcgmNodeLabel = v;
      return this;
    }

    /**
     * @see FleetConfig#dcgmAttribution()
     */
    public Builder dcgmAttribution(DcgmAttribution v) {
      dcgmAttribution = v;
      return this;
    }

    /**
     * Keeps only the pods of {@code engines} (of {@link Backend#engines()}), each with at least one
     * pod: an engine not listed has none (vLLM's older-release pods and SGLang's gateway pods go
     * with their engine), one listed with none gets one, and the prefill/decode pairs stay only
     * when both vLLM and SGLang are listed (the pairs are one of each). Counts already set for
     * listed engines are kept.
     *
     * @throws IllegalArgumentException for an empty list or a backend that is not an engine
     */
    public Builder engines(java.util.Collection<Backend> engines) {
      if (engines == null || engines.isEmpty()) {
        throw new IllegalArgumentException("engines must name at least one engine");
      }
      for (Backend b : engines) {
        if (!Backend.engines().contains(b)) {
          throw new IllegalArgumentException("not a simulated engine: " + b.label());
        }
      }
      boolean vllm = engines.contains(Backend.VLLM);
      boolean sglang = engines.contains(Backend.SGLANG);
      vllmPods = vllm ? Math.max(1, vllmPods) : 0;
      legacyVllmPods = vllm ? legacyVllmPods : 0;
      dataParallelPods = vllm ? Math.min(dataParallelPods, vllmPods) : 0;
      sglangPods = sglang ? Math.max(1, sglangPods) : 0;
      sglangGatewayPods = sglang ? sglangGatewayPods : 0;
      prefillDecode = prefillDecode && vllm && sglang;
      tgiPods = engines.contains(Backend.TGI) ? Math.max(1, tgiPods) : 0;
      llamacppPods = engines.contains(Backend.LLAMACPP) ? Math.max(1, llamacppPods) : 0;
      llamacppWithoutMetrics = Math.min(llamacppWithoutMetrics, llamacppPods);
      trtllmPods = engines.contains(Backend.TRTLLM) ? Math.max(1, trtllmPods) : 0;
      trtllmRelease13 = Math.min(trtllmRelease13, trtllmPods);
      return this;
    }

    /**
     * @see FleetConfig#amdNodes()
     */
    public Builder amdNodes(int v) {
      amdNodes = v;
      return this;
    }

    /** The config; validates. */
    public FleetConfig build() {
      int dp = dataParallelPods;
      if (!dataParallelSet && vllmPods < 2) {
        dp = 0; // by default a lone vLLM pod stays plain; DP is one pod among several
      }
      return new FleetConfig(
          seed,
          vllmPods,
          legacyVllmPods,
          legacyRelease,
          dp,
          sglangPods,
          sglangTensorParallel,
          sglangGatewayPods,
          tgiPods,
          llamacppPods,
          llamacppWithoutMetrics,
          prefillDecode,
          models,
          nodes,
          gpusPerNode,
          namespace,
          scenario,
          smProfilingFields,
          speculativeTokens,
          dcgmNodeLabel,
          lora,
          mfu,
          dcgmAttribution,
          trtllmPods,
          trtllmRelease13,
          router,
          nixl,
          kvCacheMetrics,
          amdNodes,
          vllmSleep);
    }
  }
}
