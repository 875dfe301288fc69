package dev.infermon.llm.catalog;

/**
 * When a metric exists: always (when the engine's metrics are on), or behind a flag, an environment
 * variable, a KV connector, dcgm's profiling module, a custom counters CSV, or hardware.
 *
 * @param kind what gates it
 * @param flag the flag, variable or feature to name to the user (empty for {@link Kind#ALWAYS})
 * @param registered whether the family is registered anyway and only stays at zero without the flag
 *     (vLLM's MFU counters): then its presence says nothing about the flag
 */
public record Condition(Kind kind, String flag, boolean registered) {
  /** What gates a metric. */
  public enum Kind {
    ALWAYS,
    FLAG,
    ENV,
    KV_CONNECTOR,
    DCGM_PROFILING,
    CUSTOM_CSV,
    HARDWARE
  }

  public static final Condition ALWAYS = new Condition(Kind.ALWAYS, "", false);

  public Condition {
    if (kind == null || flag == null) {
      throw new IllegalArgumentException("condition needs a kind and a flag");
    }
    if (kind != Kind.ALWAYS && flag.isEmpty()) {
      throw new IllegalArgumentException("condition " + kind + " needs the flag that enables it");
    }
  }

  /** Whether the metric may be absent on a healthy, correctly configured target. */
  public boolean gated() {
    return kind != Kind.ALWAYS && !registered;
  }
}
