package dev.infermon.simulator;

/** The {@code backend} target label, as ACK's inference-backend pod label spells it. */
public enum Backend {
  VLLM("vllm"),
  SGLANG("sglang"),
  VLLM_PD("vllm-pd"),
  SGLANG_PD("sglang-pd"),
  TGI("tgi"),
  LLAMACPP("llamacpp"),
  TRTLLM("trtllm"),
  DCGM("dcgm"),
  /** AMD's device-metrics-exporter (simulate --amd-nodes). */
  AMDGPU("amdgpu"),
  /** vLLM production-stack's router (simulate --router production-stack). */
  PRODUCTION_STACK("production-stack"),
  /** llm-d's endpoint picker (simulate --router llm-d). */
  LLM_D("llm-d");

  private final String label;

  Backend(String label) {
    this.label = label;
  }

  /** Whether this is a node's GPU exporter (dcgm-exporter, AMD device-metrics-exporter). */
  public boolean gpuExporter() {
    return this == DCGM || this == AMDGPU;
  }

  /** The label value. */
  public String label() {
    return label;
  }
}
