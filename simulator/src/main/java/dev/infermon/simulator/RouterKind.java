package dev.infermon.simulator;

import java.util.Locale;

/**
 * The router the simulated fleet serves in front of its pods ({@code simulate --router}), by the
 * name routers.yaml's {@code backend} gives it; also its target's {@code backend} label.
 */
public enum RouterKind {
  /** No router (the default). */
  NONE(""),
  /** vLLM production-stack's router, in front of the vLLM pods. */
  PRODUCTION_STACK("production-stack"),
  /** llm-d's endpoint picker (EPP), in front of the vLLM and SGLang pods. */
  LLM_D("llm-d"),
  /**
   * SGLang's model gateway (smg, formerly sgl-router), its HTTP router in front of the SGLang pods.
   */
  SMG("smg");

  private final String label;

  RouterKind(String label) {
    this.label = label;
  }

  /** The name ({@code llm-d}), also the router target's {@code backend} label. */
  public String label() {
    return label;
  }

  /**
   * The router named {@code s} ({@code none}, {@code production-stack}, {@code llm-d}, {@code
   * smg}).
   *
   * @throws IllegalArgumentException naming the value and the known ones
   */
  public static RouterKind parse(String s) {
    if (s.equalsIgnoreCase("none")) {
      return NONE;
    }
    for (RouterKind k : values()) {
      if (k != NONE && k.label.equals(s.toLowerCase(Locale.ROOT))) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "unknown router \"" + s + "\" (one of none, production-stack, llm-d, smg)");
  }
}
