package dev.infermon.simulator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
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
  /**
   * llm-d's endpoint picker (EPP), in front of the vLLM and SGLang pods that no router of their own
   * fronts, and of the prefill/decode pairs no gateway fronts.
   */
  LLM_D("llm-d"),
  /**
   * SGLang's model gateway (smg, formerly sgl-router), its HTTP router in front of the SGLang pods
   * and its PD router in front of the SGLang prefill/decode pair.
   */
  SMG("smg"),
  /**
   * NVIDIA Dynamo's frontend (its OpenAI HTTP service), in front of the vLLM and SGLang pods that
   * no router of their own fronts and of the prefill/decode pairs no gateway fronts, ahead of
   * llm-d's EPP: Dynamo's workers are vLLM and SGLang engines.
   */
  DYNAMO("dynamo");

  private final String label;

  RouterKind(String label) {
    this.label = label;
  }

  /** The name ({@code llm-d}), also the router target's {@code backend} label. */
  public String label() {
    return label;
  }

  /**
   * The router named {@code s} ({@code none}, {@code production-stack}, {@code llm-d}, {@code smg},
   * {@code dynamo}).
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
        "unknown router \"" + s + "\" (one of none, production-stack, llm-d, smg, dynamo)");
  }

  /**
   * The routers a comma-separated list names ({@code llm-d,smg}), each once; {@code none} alone for
   * none.
   *
   * @throws IllegalArgumentException naming an unknown value and the known ones, a router named
   *     twice, or {@code none} beside a router
   */
  public static List<RouterKind> parseList(String s) {
    List<RouterKind> out = new ArrayList<>();
    String[] parts = s.split(",", -1);
    for (String part : parts) {
      RouterKind k = parse(part.trim());
      if (k == NONE) {
        if (parts.length > 1) {
          throw new IllegalArgumentException("\"none\" cannot be listed beside a router: " + s);
        }
        continue;
      }
      if (out.contains(k)) {
        throw new IllegalArgumentException("router \"" + k.label + "\" is listed twice: " + s);
      }
      out.add(k);
    }
    return List.copyOf(out);
  }

  /**
   * The routers that sit in front of these engines in the mixed demo ({@code --engines}): llm-d's
   * EPP in front of vLLM and SGLang's model gateway in front of SGLang, each an engine's usual
   * router. production-stack is left out: it and llm-d are two ways of serving the same vLLM pods,
   * and a pool of pods sits behind one of them. Every engine listed adds NVIDIA Dynamo's frontend,
   * in front of the fleet's own Dynamo deployment ({@link FleetConfig#dynamoPods()}) alone.
   */
  public static List<RouterKind> forEngines(Collection<Backend> engines) {
    List<RouterKind> out = new ArrayList<>();
    if (engines.contains(Backend.VLLM)) {
      out.add(LLM_D);
    }
    if (engines.contains(Backend.SGLANG)) {
      out.add(SMG);
    }
    if (engines.containsAll(Backend.engines())) {
      out.add(DYNAMO);
    }
    return List.copyOf(out);
  }
}
