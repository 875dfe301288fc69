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
  /** vLLM production-stack's router (simulate --router production-stack). */
  PRODUCTION_STACK("production-stack"),
  /** llm-d's endpoint picker (simulate --router llm-d). */
  LLM_D("llm-d");

  private final String label;

  Backend(String label) {
    this.label = label;
  }

  /** The label value. */
  public String label() {
    return label;
  }
}
