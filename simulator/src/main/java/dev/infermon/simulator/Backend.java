package dev.infermon.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code backend} target label, as ACK's inference-backend pod label spells it. */
public enum Backend {
  VLLM("vllm", true),
  SGLANG("sglang", true),
  VLLM_PD("vllm-pd", false),
  SGLANG_PD("sglang-pd", false),
  TGI("tgi", true),
  LLAMACPP("llamacpp", true),
  TRTLLM("trtllm", true),
  /** Triton Inference Server with the tensorrtllm backend (simulate --triton-pods). */
  TRITON("triton", true),
  /** NVIDIA NIM for LLMs: vLLM's V0 names without prefix at /v1/metrics (simulate --nim-pods). */
  NIM("nim", true),
  DCGM("dcgm", false),
  /** AMD's device-metrics-exporter (simulate --amd-nodes). */
  AMDGPU("amdgpu", false),
  /** vLLM production-stack's router (simulate --router production-stack). */
  PRODUCTION_STACK("production-stack", false),
  /** llm-d's endpoint picker (simulate --router llm-d). */
  LLM_D("llm-d", false),
  /** SGLang's model gateway (simulate --router smg). */
  SMG("smg", false),
  /** NVIDIA Dynamo's frontend (simulate --router dynamo). */
  DYNAMO("dynamo", false),
  /**
   * A vLLM worker of the NVIDIA Dynamo deployment behind its own frontend ({@link
   * FleetConfig#dynamoPods()}): no {@code backend} label, as inference discovery labels a Dynamo
   * operator's worker pod (the operator stamps no label naming the engine), role {@code worker}.
   */
  DYNAMO_WORKER("", false);

  private final String label;
  private final boolean engine;

  Backend(String label, boolean engine) {
    this.label = label;
    this.engine = engine;
  }

  /** Whether this is a node's GPU exporter (dcgm-exporter, AMD device-metrics-exporter). */
  public boolean gpuExporter() {
    return this == DCGM || this == AMDGPU;
  }

  /** The label value. */
  public String label() {
    return label;
  }

  /**
   * The inference engines the simulator has pods of, by their catalog name (the prefill/decode
   * variants are vLLM and SGLang pods in a role, not engines of their own).
   */
  public static List<Backend> engines() {
    List<Backend> out = new ArrayList<>();
    for (Backend b : values()) {
      if (b.engine) {
        out.add(b);
      }
    }
    return List.copyOf(out);
  }

  /**
   * The simulated engine named {@code name} ({@code vllm}, {@code tgi}, ...).
   *
   * @throws IllegalArgumentException naming the value and every simulated engine
   */
  public static Backend engine(String name) {
    for (Backend b : engines()) {
      if (b.label.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return b;
      }
    }
    List<String> known = new ArrayList<>();
    engines().forEach(b -> known.add(b.label));
    throw new IllegalArgumentException(
        "unknown engine \"" + name + "\" (one of " + String.join(", ", known) + ", or all)");
  }
}
