package dev.infermon.simulator.vllm;

/**
 * The vLLM releases whose {@code /metrics} page the simulator can serve. Each differs in family
 * names, labels, HELP texts and buckets exactly as the real captures do (../shared/fixtures/vllm
 * and the 2026-09 capture cited in ../shared/research/vllm.md §7).
 */
public enum VllmRelease {
  /**
   * The current V1 page (≈0.24–0.33): {@code engine} label, {@code num_requests_waiting_by_reason},
   * {@code engine_sleep_state}, prompt tokens by source, MFU counters, five finish reasons, no
   * deprecated TPOT histogram.
   */
  V1_CURRENT("0.24+"),
  /** vLLM 0.11 (V1): the deprecated {@code time_per_output_token_seconds} is still there. */
  V0_11("0.11"),
  /** vLLM 0.4.3, the V0 engine: {@code model_name} only, no {@code _created}, swapped requests. */
  V0_4_3("0.4.3");

  private final String version;

  VllmRelease(String version) {
    this.version = version;
  }

  /** The version as the inventory reports it. */
  public String version() {
    return version;
  }

  /** Whether this is the V0 engine (no {@code engine} label, V0 buckets). */
  public boolean isV0() {
    return this == V0_4_3;
  }

  /** The CLI/inventory name ({@code v1-current}, {@code v0.11}, {@code v0.4.3}). */
  public String cliName() {
    switch (this) {
      case V1_CURRENT:
        return "v1-current";
      case V0_11:
        return "v0.11";
      default:
        return "v0.4.3";
    }
  }

  /** The release with the given CLI name. */
  public static VllmRelease fromCliName(String name) {
    for (VllmRelease r : values()) {
      if (r.cliName().equals(name)) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "unknown vLLM release: \"" + name + "\" (expected v1-current, v0.11 or v0.4.3)");
  }
}
