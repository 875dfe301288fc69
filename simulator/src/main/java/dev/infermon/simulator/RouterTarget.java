package dev.infermon.simulator;

import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.router.LlmdEpp;
import dev.infermon.simulator.router.ProductionStackRouter;
import dev.infermon.simulator.router.SmgRouter;
import java.util.ArrayList;
import java.util.List;

/**
 * The router in front of the fleet's pods ({@link FleetConfig#router()}): its page is computed from
 * the same pods' engines when scraped, so what it counts per pod is what they were sent.
 * production-stack's router fronts the vLLM pods, llm-d's EPP the vLLM and SGLang pods, SGLang's
 * model gateway the SGLang pods (its HTTP router, timing each request the pods finish); none fronts
 * prefill/decode pairs or the pods behind SGLang's per-pod {@code /engine_metrics} gateway here.
 * Not thread-safe.
 */
final class RouterTarget extends SimTarget {
  private final RouterKind kind;
  private final List<InferencePod> behind;
  private final ProductionStackRouter productionStack;
  private final LlmdEpp epp = new LlmdEpp();
  private final SmgRouter smg = new SmgRouter();

  RouterTarget(FleetConfig config, List<InferencePod> pods, double start) {
    super(info(config));
    this.kind = config.router();
    List<InferencePod> b = new ArrayList<>();
    for (InferencePod p : pods) {
      if (p.info().role().isEmpty() && fronts(kind, p)) {
        b.add(p);
      }
    }
    this.behind = List.copyOf(b);
    String model = b.isEmpty() ? "none" : b.get(0).info().model();
    this.productionStack = new ProductionStackRouter(model, start);
    if (kind == RouterKind.SMG) {
      for (InferencePod p : behind) {
        String m = p.info().model();
        p.onFinish(
            (seconds, reason, now) ->
                smg.finished(
                    m, seconds, reason != FinishReason.ABORT && reason != FinishReason.ERROR, now));
      }
    }
  }

  /** Whether a router of this kind sends requests to the (role-less) pod. */
  static boolean fronts(RouterKind kind, InferencePod p) {
    boolean vllm = p instanceof VllmPod;
    boolean sglang = p instanceof SglangPod && !((SglangPod) p).gateway();
    switch (kind) {
      case PRODUCTION_STACK:
        return vllm;
      case LLM_D:
        return vllm || sglang;
      case SMG:
        return sglang;
      default:
        return false;
    }
  }

  private static PodInfo info(FleetConfig config) {
    Backend backend;
    switch (config.router()) {
      case LLM_D:
        backend = Backend.LLM_D;
        break;
      case SMG:
        backend = Backend.SMG;
        break;
      default:
        backend = Backend.PRODUCTION_STACK;
    }
    String name = config.router().label() + "-router-0";
    return new PodInfo(
        name, config.namespace(), name, backend, "", config.router().label(), "", "", "", 0, 0, 0);
  }

  /**
   * The address each pod is scraped at ({@code host:port}): production-stack's server URL, the
   * gateway's worker URL.
   */
  void addresses(java.util.function.Function<PodInfo, String> hostPort) {
    productionStack.urls(p -> "http://" + hostPort.apply(p.info()));
    smg.urls(p -> "http://" + hostPort.apply(p.info()));
  }

  /** The pods the router sends requests to. */
  List<InferencePod> behind() {
    return behind;
  }

  /** The gateway's page state ({@link RouterKind#SMG}), for its ground truth. */
  SmgRouter smg() {
    return smg;
  }

  @Override
  void advanceTo(double epochSeconds) {
    // the pods advance themselves; the router reads them when scraped
  }

  @Override
  String render(double epochSeconds) {
    if (kind == RouterKind.LLM_D) {
      return epp.render(behind, epochSeconds);
    }
    if (kind == RouterKind.SMG) {
      return smg.render(behind, epochSeconds);
    }
    List<VllmPod> vllm = new ArrayList<>();
    behind.forEach(p -> vllm.add((VllmPod) p));
    return productionStack.render(vllm, epochSeconds);
  }
}
