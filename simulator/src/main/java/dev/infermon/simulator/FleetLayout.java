package dev.infermon.simulator;

import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.model.Rng;
import dev.infermon.simulator.model.Workload;
import dev.infermon.simulator.vllm.VllmRelease;
import dev.infermon.simulator.vllm.VllmSleep;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a {@link FleetConfig} into pods and nodes: deterministic names ({@code <workload>-<n>},
 * StatefulSet style), models assigned round-robin, GPUs placed by {@link GpuPlacement} with one
 * dcgm-exporter per node.
 */
final class FleetLayout {

  private final FleetConfig config;
  private final double start;
  private final List<InferencePod> pods = new ArrayList<>();
  private final List<SimTarget> exporters = new ArrayList<>();
  private int modelCursor;
  private int pid = 1200;

  private FleetLayout(FleetConfig config, double start) {
    this.config = config;
    this.start = start;
  }

  /** The inference pods and exporters for {@code config}, starting at {@code startEpoch}. */
  static FleetLayout build(FleetConfig config, double startEpoch) {
    FleetLayout l = new FleetLayout(config, startEpoch);
    l.buildPods();
    GpuPlacement.place(config, l.pods, l.exporters);
    return l;
  }

  List<InferencePod> pods() {
    return pods;
  }

  List<SimTarget> exporters() {
    return exporters;
  }

  private ModelProfile nextModel() {
    String name = config.models().get(modelCursor++ % config.models().size());
    return ModelProfile.forName(name);
  }

  private LoadShape shape(ModelProfile p) {
    return shape(config.seed(), p);
  }

  /**
   * How {@code p}'s load moves in a fleet seeded {@code seed}: a daily swing of ±40% and a burst of
   * 1.8x in one 5-minute window of twenty.
   */
  static LoadShape shape(long seed, ModelProfile p) {
    return new LoadShape(seed, Rng.derive(0, p.name()), 0.4, 0.05, 1.8);
  }

  private void buildPods() {
    Scenario s = config.scenario();
    for (int i = 0; i < config.vllmPods(); i++) {
      ModelProfile p = nextModel();
      int dp = i >= config.vllmPods() - config.dataParallelPods() ? 2 : 1;
      String workload = "vllm-" + p.slug() + (dp > 1 ? "-dp" : "");
      String name = workload + "-" + ordinal(workload);
      PodInfo info =
          info(
              name,
              workload,
              Backend.VLLM,
              "",
              "vllm",
              VllmRelease.V1_CURRENT.version(),
              p,
              dp,
              p.tensorParallel());
      pods.add(
          new VllmPod(
              info,
              VllmRelease.V1_CURRENT,
              p,
              config.seed(),
              shape(p),
              Workload.Phase.BOTH,
              name,
              s,
              start,
              config.speculativeTokens(),
              dp > 1 ? LoraAdapters.NONE : config.lora(),
              config.mfu(),
              new VllmPod.Features(false, config.kvCacheMetrics(), i < config.lmcachePods()),
              config.vllmSleep().stretch(i, start)));
    }
    for (int i = 0; i < config.legacyVllmPods(); i++) {
      ModelProfile p = nextModel();
      VllmRelease r = config.legacyRelease();
      String workload = "vllm-" + r.cliName().replace('.', '-') + "-" + p.slug();
      String name = workload + "-" + ordinal(workload);
      PodInfo info =
          info(name, workload, Backend.VLLM, "", "vllm", r.version(), p, 1, p.tensorParallel());
      pods.add(
          new VllmPod(
              info,
              r,
              p,
              config.seed(),
              shape(p),
              Workload.Phase.BOTH,
              name,
              s,
              start,
              0,
              r.isV0() ? LoraAdapters.NONE : config.lora(),
              false,
              VllmPod.Features.NONE,
              VllmSleep.Stretch.NEVER));
    }
    for (int i = 0; i < config.sglangPods(); i++) {
      ModelProfile p = nextModel();
      String workload = "sglang-" + p.slug();
      String name = workload + "-" + ordinal(workload);
      pods.add(sglang(name, workload, Backend.SGLANG, "", false, p, Workload.Phase.BOTH, name));
    }
    for (int i = 0; i < config.sglangGatewayPods(); i++) {
      ModelProfile p = nextModel();
      String workload = "sglang-gateway-" + p.slug();
      String name = workload + "-" + ordinal(workload);
      pods.add(sglang(name, workload, Backend.SGLANG, "", true, p, Workload.Phase.BOTH, name));
    }
    for (int i = 0; i < config.tgiPods(); i++) {
      ModelProfile p = nextModel();
      String workload = "tgi-" + p.slug();
      String name = workload + "-" + ordinal(workload);
      PodInfo info =
          info(name, workload, Backend.TGI, "", "tgi", "3.3.7", p, 1, p.tensorParallel());
      pods.add(new TgiPod(info, p, config.seed(), shape(p), name, s, start));
    }
    for (int i = 0; i < config.llamacppPods(); i++) {
      ModelProfile p = llamacpp(nextModel());
      String workload = "llamacpp-" + p.slug();
      String name = workload + "-" + ordinal(workload);
      PodInfo info =
          info(
              name,
              workload,
              Backend.LLAMACPP,
              "",
              "llamacpp",
              "2025-10",
              p,
              1,
              p.tensorParallel());
      boolean metricsFlag = i < config.llamacppPods() - config.llamacppWithoutMetrics();
      pods.add(new LlamacppPod(info, p, config.seed(), shape(p), name, s, start, metricsFlag));
    }
    for (int i = 0; i < config.trtllmPods(); i++) {
      // the last trtllmRelease10 pods run 1.0 and the trtllmRelease13 before them 1.3: pages that
      // name no model ("undefined")
      int older = config.trtllmPods() - config.trtllmRelease10();
      String release = i >= older ? "1.0" : i < older - config.trtllmRelease13() ? "main" : "1.3";
      ModelProfile p = nextModel();
      String workload = "trtllm-" + p.slug();
      String name = workload + "-" + ordinal(workload);
      PodInfo info =
          info(name, workload, Backend.TRTLLM, "", "trtllm", release, p, 1, p.tensorParallel());
      pods.add(new TrtllmPod(info, p, config.seed(), shape(p), name, s, start));
    }
    for (int i = 0; i < config.tritonPods(); i++) {
      ModelProfile p = nextModel();
      String workload = "triton-" + p.slug();
      String name = workload + "-" + ordinal(workload);
      // the release line is the backend reporter's commit (triton.yaml's versions)
      PodInfo info =
          info(name, workload, Backend.TRITON, "", "triton", "0d5352f5", p, 1, p.tensorParallel());
      pods.add(new TritonPod(info, p, config.seed(), shape(p), name, s, start));
    }
    for (int i = 0; i < config.nimPods(); i++) {
      ModelProfile p = nextModel();
      String workload = "nim-" + p.slug();
      String name = workload + "-" + ordinal(workload);
      // the release is the capture's: NIM for LLMs as DataDog's fixture recorded it in 2024-10
      PodInfo info =
          info(name, workload, Backend.NIM, "", "nim", NimPod.VERSION, p, 1, p.tensorParallel());
      pods.add(new NimPod(info, p, config.seed(), shape(p), name, s, start));
    }
    dynamoWorkers(s);
    if (config.prefillDecode()) {
      ModelProfile p = ModelProfile.forName(config.models().get(0));
      String vw = "vllm-pd-" + p.slug();
      for (String role : List.of("prefill", "decode")) {
        String name = vw + "-" + role + "-0";
        Workload.Phase phase =
            role.equals("prefill") ? Workload.Phase.PREFILL : Workload.Phase.DECODE;
        VllmPod.Features features = new VllmPod.Features(config.nixl(), config.kvCacheMetrics());
        pods.add(currentVllm(name, vw, Backend.VLLM_PD, role, p, phase, vw, features, s));
      }
      String sw = "sglang-pd-" + p.slug();
      for (String role : List.of("prefill", "decode")) {
        String name = sw + "-" + role + "-0";
        pods.add(
            sglang(
                name,
                sw,
                Backend.SGLANG_PD,
                role,
                false,
                p,
                role.equals("prefill") ? Workload.Phase.PREFILL : Workload.Phase.DECODE,
                sw));
      }
    }
  }

  /**
   * The Dynamo deployment's vLLM workers (a graph's {@code VllmDecodeWorker} service, aggregated),
   * each a current V1 vLLM engine inside {@code python -m dynamo.vllm}, serving {@link
   * FleetConfig#DYNAMO_MODEL}.
   */
  private void dynamoWorkers(Scenario s) {
    ModelProfile p = ModelProfile.forName(FleetConfig.DYNAMO_MODEL);
    String workload = "dynamo-vllm-" + p.slug();
    for (int i = 0; i < config.dynamoPods(); i++) {
      String name = workload + "-worker-" + i;
      pods.add(
          currentVllm(
              name,
              workload,
              Backend.DYNAMO_WORKER,
              "worker",
              p,
              Workload.Phase.BOTH,
              name,
              VllmPod.Features.NONE,
              s));
    }
  }

  /** A pod of the current V1 vLLM release, one GPU, no LoRA adapters, never asleep. */
  private VllmPod currentVllm(
      String name,
      String workload,
      Backend backend,
      String role,
      ModelProfile p,
      Workload.Phase phase,
      String group,
      VllmPod.Features features,
      Scenario s) {
    PodInfo info =
        info(
            name,
            workload,
            backend,
            role,
            "vllm",
            VllmRelease.V1_CURRENT.version(),
            p,
            1,
            p.tensorParallel());
    return new VllmPod(
        info,
        VllmRelease.V1_CURRENT,
        p,
        config.seed(),
        shape(p),
        phase,
        group,
        s,
        start,
        0,
        LoraAdapters.NONE,
        config.mfu(),
        features,
        VllmSleep.Stretch.NEVER);
  }

  /**
   * A llama-server's share of a model's traffic: its {@link LlamacppPod#SLOTS} slots serve a
   * quarter of what a vLLM pod's batch does, so it runs at about half of capacity too.
   */
  private static ModelProfile llamacpp(ModelProfile p) {
    return new ModelProfile(
        p.name(),
        p.tensorParallel(),
        p.params(),
        p.workload().withRate(p.workload().requestsPerSecond() / 4),
        p.weightsMiB());
  }

  private SglangPod sglang(
      String name,
      String workload,
      Backend backend,
      String role,
      boolean gateway,
      ModelProfile p,
      Workload.Phase phase,
      String arrivalKey) {
    int tp = config.sglangTensorParallel();
    PodInfo info =
        info(
            name,
            workload,
            backend,
            role,
            gateway ? "sglang-gateway" : "sglang",
            config.sglangRelease().version(),
            p,
            1,
            tp);
    int firstPid = pid;
    pid += 8;
    String worker = "http://10.42." + (pods.size() % 250) + "." + (11 + pods.size()) + ":30000";
    return new SglangPod(
        info,
        gateway,
        worker,
        firstPid,
        p,
        config.seed(),
        shape(p),
        phase,
        arrivalKey,
        config.scenario(),
        start,
        backend == Backend.SGLANG_PD ? LoraAdapters.NONE : config.lora(),
        config.sglangRelease());
  }

  private final List<String> workloads = new ArrayList<>();

  private int ordinal(String workload) {
    int n = 0;
    for (String w : workloads) {
      if (w.equals(workload)) {
        n++;
      }
    }
    workloads.add(workload);
    return n;
  }

  private PodInfo info(
      String name,
      String workload,
      Backend backend,
      String role,
      String engine,
      String version,
      ModelProfile p,
      int dp,
      int tp) {
    return new PodInfo(
        name,
        config.namespace(),
        workload,
        backend,
        role,
        engine,
        version,
        p.name(),
        "",
        dp * tp,
        dp,
        tp);
  }
}
