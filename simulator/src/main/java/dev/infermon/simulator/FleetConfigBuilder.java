package dev.infermon.simulator;

import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.sglang.SglangRelease;
import dev.infermon.simulator.vllm.VllmRelease;
import dev.infermon.simulator.vllm.VllmSleep;
import java.util.List;

/** Builds a {@link FleetConfig}; every setter has a default. Not thread-safe. */
public final class FleetConfigBuilder {
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
  private int nimPods;
  private int dynamoPods;
  private int llamacppPods;
  private int llamacppWithoutMetrics;
  private int trtllmPods;
  private int trtllmRelease13;
  private int trtllmRelease10;
  private int tritonPods;
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
  private dev.infermon.simulator.amdgpu.AmdPartition amdPartition =
      dev.infermon.simulator.amdgpu.AmdPartition.SPX;
  private LoraAdapters lora = LoraAdapters.NONE;
  private boolean mfu;
  private DcgmAttribution dcgmAttribution = DcgmAttribution.DEVICE_PLUGIN;
  private List<RouterKind> routers = List.of();
  private boolean nixl = true;
  private boolean kvCacheMetrics;
  private int lmcachePods;
  private VllmSleep vllmSleep = VllmSleep.NONE;
  private SglangRelease sglangRelease = SglangRelease.V0_5_9;

  FleetConfigBuilder() {}

  /**
   * @see FleetConfig#seed()
   */
  public FleetConfigBuilder seed(long v) {
    seed = v;
    return this;
  }

  /**
   * @see FleetConfig#vllmPods()
   */
  public FleetConfigBuilder vllmPods(int v) {
    vllmPods = v;
    return this;
  }

  /**
   * @see FleetConfig#legacyVllmPods()
   */
  public FleetConfigBuilder legacyVllmPods(int v) {
    legacyVllmPods = v;
    return this;
  }

  /**
   * @see FleetConfig#legacyRelease()
   */
  public FleetConfigBuilder legacyRelease(VllmRelease v) {
    legacyRelease = v;
    return this;
  }

  /**
   * @see FleetConfig#dataParallelPods()
   */
  public FleetConfigBuilder dataParallelPods(int v) {
    dataParallelPods = v;
    dataParallelSet = true;
    return this;
  }

  /**
   * @see FleetConfig#sglangPods()
   */
  public FleetConfigBuilder sglangPods(int v) {
    sglangPods = v;
    return this;
  }

  /**
   * @see FleetConfig#sglangTensorParallel()
   */
  public FleetConfigBuilder sglangTensorParallel(int v) {
    sglangTensorParallel = v;
    return this;
  }

  /**
   * @see FleetConfig#sglangGatewayPods()
   */
  public FleetConfigBuilder sglangGatewayPods(int v) {
    sglangGatewayPods = v;
    return this;
  }

  /**
   * @see FleetConfig#tgiPods()
   */
  public FleetConfigBuilder tgiPods(int v) {
    tgiPods = v;
    return this;
  }

  /**
   * @see FleetConfig#dynamoPods()
   */
  public FleetConfigBuilder dynamoPods(int v) {
    dynamoPods = v;
    return this;
  }

  /**
   * @see FleetConfig#nimPods()
   */
  public FleetConfigBuilder nimPods(int v) {
    nimPods = v;
    return this;
  }

  /**
   * @see FleetConfig#trtllmRelease13()
   */
  public FleetConfigBuilder trtllmRelease13(int v) {
    trtllmRelease13 = v;
    return this;
  }

  /**
   * @see FleetConfig#trtllmRelease10()
   */
  public FleetConfigBuilder trtllmRelease10(int v) {
    trtllmRelease10 = v;
    return this;
  }

  /**
   * @see FleetConfig#tritonPods()
   */
  public FleetConfigBuilder tritonPods(int v) {
    tritonPods = v;
    return this;
  }

  /**
   * @see FleetConfig#trtllmPods()
   */
  public FleetConfigBuilder trtllmPods(int v) {
    trtllmPods = v;
    return this;
  }

  /**
   * @see FleetConfig#llamacppPods()
   */
  public FleetConfigBuilder llamacppPods(int v) {
    llamacppPods = v;
    return this;
  }

  /**
   * @see FleetConfig#llamacppWithoutMetrics()
   */
  public FleetConfigBuilder llamacppWithoutMetrics(int v) {
    llamacppWithoutMetrics = v;
    return this;
  }

  /**
   * @see FleetConfig#prefillDecode()
   */
  public FleetConfigBuilder prefillDecode(boolean v) {
    prefillDecode = v;
    return this;
  }

  /**
   * @see FleetConfig#models()
   */
  public FleetConfigBuilder models(List<String> v) {
    models = v;
    return this;
  }

  /**
   * @see FleetConfig#nodes()
   */
  public FleetConfigBuilder nodes(int v) {
    nodes = v;
    return this;
  }

  /**
   * @see FleetConfig#gpusPerNode()
   */
  public FleetConfigBuilder gpusPerNode(int v) {
    gpusPerNode = v;
    return this;
  }

  /**
   * @see FleetConfig#namespace()
   */
  public FleetConfigBuilder namespace(String v) {
    namespace = v;
    return this;
  }

  /**
   * @see FleetConfig#scenario()
   */
  public FleetConfigBuilder scenario(Scenario v) {
    scenario = v;
    return this;
  }

  /**
   * @see FleetConfig#smProfilingFields()
   */
  public FleetConfigBuilder smProfilingFields(boolean v) {
    smProfilingFields = v;
    return this;
  }

  /**
   * @see FleetConfig#speculativeTokens()
   */
  public FleetConfigBuilder speculativeTokens(int v) {
    speculativeTokens = v;
    return this;
  }

  /**
   * @see FleetConfig#lora()
   */
  public FleetConfigBuilder lora(LoraAdapters v) {
    lora = v;
    return this;
  }

  /**
   * @see FleetConfig#mfu()
   */
  public FleetConfigBuilder mfu(boolean v) {
    mfu = v;
    return this;
  }

  /**
   * @see FleetConfig#nixl()
   */
  public FleetConfigBuilder nixl(boolean v) {
    nixl = v;
    return this;
  }

  /**
   * @see FleetConfig#lmcachePods()
   */
  public FleetConfigBuilder lmcachePods(int v) {
    lmcachePods = v;
    return this;
  }

  /**
   * @see FleetConfig#kvCacheMetrics()
   */
  public FleetConfigBuilder kvCacheMetrics(boolean v) {
    kvCacheMetrics = v;
    return this;
  }

  /**
   * @see FleetConfig#vllmSleep()
   */
  public FleetConfigBuilder vllmSleep(VllmSleep v) {
    vllmSleep = v;
    return this;
  }

  /**
   * @see FleetConfig#sglangRelease()
   */
  public FleetConfigBuilder sglangRelease(SglangRelease v) {
    sglangRelease = v;
    return this;
  }

  /**
   * One router in front of the pods, {@link RouterKind#NONE} for none.
   *
   * @see FleetConfig#routers()
   */
  public FleetConfigBuilder router(RouterKind v) {
    routers = v == RouterKind.NONE ? List.of() : List.of(v);
    return this;
  }

  /**
   * @see FleetConfig#routers()
   */
  public FleetConfigBuilder routers(List<RouterKind> v) {
    routers = v;
    return this;
  }

  /**
   * @see FleetConfig#dcgmNodeLabel()
   */
  public FleetConfigBuilder dcgmNodeLabel(String v) {
    dcgmNodeLabel = v;
    return this;
  }

  /**
   * @see FleetConfig#dcgmAttribution()
   */
  public FleetConfigBuilder dcgmAttribution(DcgmAttribution v) {
    dcgmAttribution = v;
    return this;
  }

  /**
   * Keeps only the pods of {@code engines} (of {@link Backend#engines()}), each with at least one
   * pod: an engine not listed has none (vLLM's older-release pods and SGLang's gateway pods go with
   * their engine), one listed with none gets one (TensorRT-LLM three: one current, one on 1.3 and
   * one on 1.0, whose pages name no model), and the prefill/decode pairs stay only when both vLLM
   * and SGLang are listed (the pairs are one of each). Counts already set for listed engines are
   * kept.
   *
   * @throws IllegalArgumentException for an empty list or a backend that is not an engine
   */
  public FleetConfigBuilder engines(java.util.Collection<Backend> engines) {
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
    if (!engines.contains(Backend.TRTLLM)) {
      trtllmPods = 0;
    } else if (trtllmPods == 0) {
      // one pod per release the simulator serves: the current page, 1.3's "undefined" one and
      // 1.0's unprefixed one
      trtllmPods = 3;
      trtllmRelease13 = 1;
      trtllmRelease10 = 1;
    }
    trtllmRelease13 = Math.min(trtllmRelease13, trtllmPods);
    trtllmRelease10 = Math.min(trtllmRelease10, trtllmPods - trtllmRelease13);
    tritonPods = engines.contains(Backend.TRITON) ? Math.max(1, tritonPods) : 0;
    // the mixed fleet of every engine shows LMCache beside one vLLM pod; a list keeps what was set
    int single = vllmPods - dataParallelPods;
    lmcachePods =
        Math.min(
            engines.containsAll(Backend.engines()) ? Math.max(1, lmcachePods) : lmcachePods,
            single);
    nimPods = engines.contains(Backend.NIM) ? Math.max(1, nimPods) : 0;
    // and an NVIDIA Dynamo deployment of its own: two vLLM workers behind Dynamo's frontend
    dynamoPods = engines.containsAll(Backend.engines()) ? Math.max(2, dynamoPods) : dynamoPods;
    return this;
  }

  /**
   * @see FleetConfig#amdNodes()
   */
  public FleetConfigBuilder amdNodes(int v) {
    amdNodes = v;
    return this;
  }

  /**
   * @see FleetConfig#amdPartition()
   */
  public FleetConfigBuilder amdPartition(dev.infermon.simulator.amdgpu.AmdPartition v) {
    amdPartition = v;
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
        trtllmRelease10,
        tritonPods,
        nimPods,
        routers,
        nixl,
        kvCacheMetrics,
        lmcachePods,
        amdNodes,
        amdPartition,
        vllmSleep,
        sglangRelease,
        dynamoPods);
  }

  /** A builder starting from {@code c}. */
  static FleetConfigBuilder from(FleetConfig c) {
    FleetConfigBuilder b = new FleetConfigBuilder();
    b.seed = c.seed();
    b.vllmPods = c.vllmPods();
    b.legacyVllmPods = c.legacyVllmPods();
    b.legacyRelease = c.legacyRelease();
    b.dataParallelPods = c.dataParallelPods();
    b.dataParallelSet = true;
    b.sglangPods = c.sglangPods();
    b.sglangTensorParallel = c.sglangTensorParallel();
    b.sglangGatewayPods = c.sglangGatewayPods();
    b.tgiPods = c.tgiPods();
    b.llamacppPods = c.llamacppPods();
    b.llamacppWithoutMetrics = c.llamacppWithoutMetrics();
    b.prefillDecode = c.prefillDecode();
    b.models = c.models();
    b.nodes = c.nodes();
    b.gpusPerNode = c.gpusPerNode();
    b.namespace = c.namespace();
    b.scenario = c.scenario();
    b.smProfilingFields = c.smProfilingFields();
    b.speculativeTokens = c.speculativeTokens();
    b.dcgmNodeLabel = c.dcgmNodeLabel();
    b.lora = c.lora();
    b.mfu = c.mfu();
    b.dcgmAttribution = c.dcgmAttribution();
    b.trtllmPods = c.trtllmPods();
    b.trtllmRelease13 = c.trtllmRelease13();
    b.trtllmRelease10 = c.trtllmRelease10();
    b.tritonPods = c.tritonPods();
    b.nimPods = c.nimPods();
    b.routers = c.routers();
    b.nixl = c.nixl();
    b.kvCacheMetrics = c.kvCacheMetrics();
    b.lmcachePods = c.lmcachePods();
    b.amdNodes = c.amdNodes();
    b.amdPartition = c.amdPartition();
    b.vllmSleep = c.vllmSleep();
    b.sglangRelease = c.sglangRelease();
    b.dynamoPods = c.dynamoPods();
    return b;
  }
}
