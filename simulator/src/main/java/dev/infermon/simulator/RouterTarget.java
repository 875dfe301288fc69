package dev.infermon.simulator;

import dev.infermon.simulator.router.LlmdEpp;
import dev.infermon.simulator.router.ProductionStackRouter;
import java.util.ArrayList;
import java.util.List;

/**
 * The router in front of the fleet's pods ({@link FleetConfig#router()}): its page is computed from
 * the same pods' engines when scraped, so what it counts per pod is what they were sent.
 * production-stack's router fronts the vLLM pods, llm-d's EPP the vLLM and SGLang pods; neither
 * fronts prefill/decode pairs or the pods behind SGLang's own gateway here. Not thread-safe.
 */
final class RouterTarget extends SimTarget {
  private final RouterKind kind;
  private final List<InferencePod> behind;
  private final ProductionStackRouter productionStack;
  private final LlmdEpp epp = new LlmdEpp();

  RouterTarget(FleetConfig config, List<InferencePod> pods, double start) {
    super(info(config));
    this.kind = config.router();
    List<InferencePod> b = new ArrayList<>();
    for (InferencePod p : pods) {
      boolean plain = p.info().role().isEmpty();
      boolean vllm = p instanceof VllmPod;
      boolean sglang = p instanceof SglangPod && !((SglangPod) p).gateway();
      if (plain && (vllm || (sglang && kind == RouterKind.LLM_D))) {
        b.add(p);
      }
    }
    this.behind = List.copyOf(b);
    String model = b.isEmpty() ? "none" : b.get(0).info().model();
    this.productionStack = new ProductionStackRouter(model, start);
  }

  private static PodInfo info(FleetConfig config) {
    Backend backend =
        config.router() == RouterKind.LLM_D ? Backend.LLM_D : Backend.PRODUCTION_STACK;
    String name = config.router().label() + "-router-0";
    return new PodInfo(
        name, config.namespace(), name, backend, "", config.router().label(), "", "", "", 0, 0, 0);
  }

  /** The address each pod is scraped at ({@code host:port}): production-stack's server URL. */
  void addresses(java.util.function.Function<PodInfo, String> hostPort) {
    productionStack.urls(p -> "http://" + hostPort.apply(p.info()));
  }

  /** The pods the router sends requests to. */
  List<InferencePod> behind() {
    return behind;
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
    List<VllmPod> vllm = new ArrayList<>();
    behind.forEach(p -> vllm.add((VllmPod) p));
    return productionStack.render(vllm, epochSeconds);
  }
}
