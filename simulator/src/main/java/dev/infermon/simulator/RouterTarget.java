package dev.infermon.simulator;

import dev.infermon.simulator.router.DynamoFrontend;
import dev.infermon.simulator.router.LlmdEpp;
import dev.infermon.simulator.router.ProductionStackRouter;
import dev.infermon.simulator.router.SmgRouter;
import java.util.ArrayList;
import java.util.List;

/**
 * One router in front of the fleet's pods ({@link FleetConfig#routers()}): its page is computed
 * from the same pods' engines when scraped, so what it counts per pod is what they were sent, and
 * it times the requests those pods finish. A pod has one router in front ({@link #frontOf}): in a
 * real deployment a pool of engine pods sits behind one router or gateway, which owns its request
 * path. production-stack's router fronts vLLM pods, SGLang's model gateway SGLang pods (its HTTP
 * router, and its PD router in front of the SGLang prefill/decode pair: {@link
 * SmgRouter#pdFinished}), llm-d's EPP either when their own router is not listed, and the
 * prefill/decode pairs no gateway fronts (a P/D request is timed once, through the decode pod:
 * {@link LlmdEpp#pdFinished}); NVIDIA Dynamo's frontend, when listed, fronts the vLLM and SGLang
 * pods and pairs no router of their own fronts, ahead of llm-d's EPP ({@link DynamoFrontend}); none
 * fronts the pods behind SGLang's per-pod {@code /engine_metrics} gateway here. Not thread-safe.
 */
final class RouterTarget extends SimTarget {
  private final RouterKind kind;
  private final List<InferencePod> behind;
  private final ProductionStackRouter productionStack;
  private final LlmdEpp epp = new LlmdEpp();
  private final SmgRouter smg = new SmgRouter();
  private final DynamoFrontend dynamo = new DynamoFrontend();

  RouterTarget(RouterKind kind, String namespace, List<InferencePod> behind, double start) {
    super(info(kind, namespace));
    this.kind = kind;
    this.behind = List.copyOf(behind);
    this.productionStack = new ProductionStackRouter(start);
    for (InferencePod p : this.behind) {
      if (kind == RouterKind.DYNAMO) {
        // behind Dynamo's frontend an engine runs inside a Dynamo worker, whose system server
        // page is what gets scraped
        p.runAsDynamoWorker();
      }
      if (kind == RouterKind.SMG && p.info().disaggregated()) {
        String m = p.info().model();
        String pair = p.info().workloadName();
        boolean prefill = p.info().role().equals("prefill");
        p.onFinish((r, reason, now) -> smg.pdFinished(pair, m, prefill, r, reason, now));
      } else if (kind == RouterKind.SMG) {
        String m = p.info().model();
        p.onFinish((r, reason, now) -> smg.finished(m, r, reason, now));
      } else if (kind == RouterKind.DYNAMO && p.info().disaggregated()) {
        String m = p.info().model();
        String pair = p.info().workloadName();
        boolean prefill = p.info().role().equals("prefill");
        p.onFinish((r, reason, now) -> dynamo.pdFinished(pair, m, prefill, r, reason, now));
      } else if (kind == RouterKind.DYNAMO) {
        String m = p.info().model();
        p.onFinish((r, reason, now) -> dynamo.finished(m, r, reason, now));
      } else if (kind == RouterKind.LLM_D && p.info().disaggregated()) {
        String m = p.info().model();
        String pair = p.info().workloadName();
        boolean prefill = p.info().role().equals("prefill");
        p.onFinish((r, reason, now) -> epp.pdFinished(pair, m, prefill, r, reason, now));
      } else if (kind == RouterKind.LLM_D) {
        String m = p.info().model();
        p.onFinish((r, reason, now) -> epp.finished(m, r, reason, now));
      } else if (kind == RouterKind.PRODUCTION_STACK) {
        VllmPod v = (VllmPod) p;
        p.onFinish((r, reason, now) -> productionStack.finished(v, r, reason, now));
      }
    }
  }

  /**
   * The routers of {@code config}, each with the pods it fronts.
   *
   * @throws IllegalArgumentException when one of several routers would front no pod
   */
  static List<RouterTarget> of(FleetConfig config, List<InferencePod> pods, double start) {
    List<RouterTarget> out = new ArrayList<>();
    for (RouterKind k : config.routers()) {
      List<InferencePod> behind = new ArrayList<>();
      for (InferencePod p : pods) {
        if (frontOf(config.routers(), pods, p) == k) {
          behind.add(p);
        }
      }
      if (behind.isEmpty() && config.routers().size() > 1) {
        throw new IllegalArgumentException(
            "router "
                + k.label()
                + " would front no pod of this fleet: a pod has one router in front,"
                + " production-stack for the vLLM pods and smg for the SGLang pods and pair when"
                + " listed, else dynamo when listed, else llm-d (routers: "
                + labels(config.routers())
                + ")");
      }
      out.add(new RouterTarget(k, config.namespace(), behind, start));
    }
    return out;
  }

  private static String labels(List<RouterKind> routers) {
    List<String> l = new ArrayList<>();
    routers.forEach(r -> l.add(r.label()));
    return String.join(", ", l);
  }

  /**
   * The router of {@code routers} in front of pod {@code p}, {@link RouterKind#NONE} for none: the
   * engine's own router when listed, else llm-d's EPP when listed (it fronts vLLM and SGLang); a
   * prefill/decode pod of SGLang has the gateway (its PD router) in front when listed, else, as the
   * vLLM pair's, llm-d's EPP when listed, else none.
   */
  static RouterKind frontOf(List<RouterKind> routers, InferencePod p) {
    if (p.info().disaggregated()) {
      // SGLang's pair has its own gateway's PD router in front when listed (the bootstrap
      // injection of pd_router.rs is SGLang's PD protocol); else, as the vLLM pair, llm-d's EPP
      // (its P/D profile handler) when listed
      if (p instanceof SglangPod && routers.contains(RouterKind.SMG)) {
        return RouterKind.SMG;
      }
      return routers.contains(RouterKind.DYNAMO) ? RouterKind.DYNAMO : eppOrNone(routers);
    }
    RouterKind own;
    if (p instanceof VllmPod) {
      own = RouterKind.PRODUCTION_STACK;
    } else if (p instanceof SglangPod && !((SglangPod) p).gateway()) {
      own = RouterKind.SMG;
    } else {
      return RouterKind.NONE;
    }
    if (routers.contains(own)) {
      return own;
    }
    return routers.contains(RouterKind.DYNAMO) ? RouterKind.DYNAMO : eppOrNone(routers);
  }

  /**
   * As {@link #frontOf(List, InferencePod)}, in a fleet of {@code pods}: where the fleet has a
   * Dynamo deployment of its own ({@link Backend#DYNAMO_WORKER}), Dynamo's frontend fronts its
   * workers and no other pod (a Dynamo graph's frontend routes to the workers registered in its
   * namespace), so the other pods keep the routers they have without it; a Dynamo worker without
   * the frontend listed has none.
   */
  static RouterKind frontOf(List<RouterKind> routers, List<InferencePod> pods, InferencePod p) {
    if (p.info().backend() == Backend.DYNAMO_WORKER) {
      return routers.contains(RouterKind.DYNAMO) ? RouterKind.DYNAMO : RouterKind.NONE;
    }
    if (pods.stream().anyMatch(o -> o.info().backend() == Backend.DYNAMO_WORKER)) {
      List<RouterKind> others = new ArrayList<>(routers);
      others.remove(RouterKind.DYNAMO);
      return frontOf(others, p);
    }
    return frontOf(routers, p);
  }

  private static RouterKind eppOrNone(List<RouterKind> routers) {
    return routers.contains(RouterKind.LLM_D) ? RouterKind.LLM_D : RouterKind.NONE;
  }

  private static PodInfo info(RouterKind kind, String namespace) {
    Backend backend;
    switch (kind) {
      case LLM_D:
        backend = Backend.LLM_D;
        break;
      case SMG:
        backend = Backend.SMG;
        break;
      case DYNAMO:
        backend = Backend.DYNAMO;
        break;
      default:
        backend = Backend.PRODUCTION_STACK;
    }
    // the operator names a graph's frontend pod after its component (frontend)
    String name = kind == RouterKind.DYNAMO ? "dynamo-frontend-0" : kind.label() + "-router-0";
    // discovery gives Dynamo's pods the operator's component type as their role
    String role = kind == RouterKind.DYNAMO ? "frontend" : "";
    return new PodInfo(name, namespace, name, backend, role, kind.label(), "", "", "", 0, 0, 0);
  }

  /** Which router this is. */
  RouterKind kind() {
    return kind;
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

  /**
   * The durations this router timed for {@code model}'s requests that finished in {@code (from,
   * to]} (epoch seconds, at most 15 minutes back): smg's successful requests (its regular and PD
   * routers'), production-stack's latencies, the EPP's request durations.
   */
  List<Double> durations(String model, double from, double to) {
    switch (kind) {
      case SMG:
        // one histogram family, regular and pd series
        List<Double> all = new ArrayList<>(smg.durations(model, from, to));
        all.addAll(smg.pdTimed(model, from, to, false));
        return all;
      case PRODUCTION_STACK:
        return productionStack.latencies(model, from, to);
      case DYNAMO:
        return dynamo.timed(model, from, to, false);
      default:
        return epp.timed(model, from, to, false);
    }
  }

  /**
   * The TTFTs the EPP or Dynamo's frontend timed, as {@link #durations}; empty for the other
   * routers.
   */
  List<Double> ttfts(String model, double from, double to) {
    if (kind == RouterKind.DYNAMO) {
      return dynamo.timed(model, from, to, true);
    }
    return kind == RouterKind.LLM_D ? epp.timed(model, from, to, true) : List.of();
  }

  /**
   * What the gateway's PD router timed for {@code model}, as {@link #durations}: its {@code
   * smg_pd_ttft_seconds} ({@code ttft}), else its durations with {@code backend_type="pd"}; empty
   * for the other routers.
   */
  List<Double> pdTimed(String model, double from, double to, boolean ttft) {
    return kind == RouterKind.SMG ? smg.pdTimed(model, from, to, ttft) : List.of();
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
    if (kind == RouterKind.DYNAMO) {
      return dynamo.render(behind, epochSeconds);
    }
    List<VllmPod> vllm = new ArrayList<>();
    behind.forEach(p -> vllm.add((VllmPod) p));
    return productionStack.render(vllm, epochSeconds);
  }
}
