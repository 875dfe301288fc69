package dev.infermon.simulator.sglang;

import java.util.Locale;

/**
 * The SGLang release lines whose {@code /metrics} page the simulator can serve ({@code simulate
 * --sglang-release}). Which families each line has is sglang.yaml's (../shared/research/sglang.md
 * §1.2); the HELP texts and buckets of the families new in 0.5.11 are those of SGLang's {@code
 * python/sglang/srt/observability/metrics_collector.py} after 0.5.11 (016d8605), the first
 * collector read that has them.
 */
public enum SglangRelease {
  /**
   * The 0.5.9 line: {@code cache_config_info{page_size,num_pages}}, the {@code num_retractions}
   * histogram, the PD {@code kv_transfer_*} families as gauges, tokenizer series labelled {@code
   * model_name} only.
   */
  V0_5_9("0.5.9"),
  /**
   * 0.5.11: the tokenizer series get {@code engine_type} (#23978); {@code full_token_usage}, {@code
   * kv_used_tokens}, {@code kv_available_tokens}, {@code kv_evictable_tokens}, and the constants
   * {@code page_size}, {@code num_pages}, {@code context_len} as gauges with the scheduler labels;
   * {@code cache_config_info} and {@code num_retractions} are gone; the PD {@code kv_transfer_*}
   * families are per-request histograms (since 0.5.10).
   */
  V0_5_11("0.5.11");

  private final String version;

  SglangRelease(String version) {
    this.version = version;
  }

  /** The version as the inventory reports it and the CLI names it ({@code 0.5.11}). */
  public String version() {
    return version;
  }

  /** Whether this line has the families 0.5.11 added (and lacks those it removed). */
  public boolean atLeast0511() {
    return this == V0_5_11;
  }

  /**
   * The release named {@code name} ({@code 0.5.9}, {@code 0.5.11}, a leading {@code v} allowed).
   *
   * @throws IllegalArgumentException naming the value and the known ones
   */
  public static SglangRelease fromCliName(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    if (n.startsWith("v")) {
      n = n.substring(1);
    }
    for (SglangRelease r : values()) {
      if (r.version.equals(n)) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "unknown SGLang release: \"" + name + "\" (expected 0.5.9 or 0.5.11)");
  }
}
