package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.model.ScenarioEffects;
import dev.infermon.simulator.model.Workload;
import dev.infermon.simulator.vllm.VllmKvResidency;
import dev.infermon.simulator.vllm.VllmLmcache;
import dev.infermon.simulator.vllm.VllmLora;
import dev.infermon.simulator.vllm.VllmMetrics;
import dev.infermon.simulator.vllm.VllmMfu;
import dev.infermon.simulator.vllm.VllmNixl;
import dev.infermon.simulator.vllm.VllmPage;
import dev.infermon.simulator.vllm.VllmRelease;
import dev.infermon.simulator.vllm.VllmSleep;
import java.util.ArrayList;
import java.util.List;

/** A vLLM server: one engine core per data-parallel rank, one page. Not thread-safe. */
public final class VllmPod extends InferencePod {
  private final VllmRelease release;
  private final int speculativeTokens;
  private final boolean mfu;
  private final Features features;
  private LoraAdapters lora;
  private final List<VllmMetrics> metrics = new ArrayList<>();
  private final VllmSleep.Stretch sleep;
  private int sleepLevel;

  VllmPod(
      PodInfo info,
      VllmRelease release,
      ModelProfile profile,
      long seed,
      LoadShape shape,
      Workload.Phase phase,
      String arrivalKey,
      Scenario scenario,
      double startEpoch,
      int speculativeTokens,
      LoraAdapters lora,
      boolean mfu,
      Features features,
      VllmSleep.Stretch sleep) {
    super(info, profile, seed, shape, phase, arrivalKey, scenario, startEpoch);
    if (features.nixl() && info.role().isEmpty()) {
      throw new IllegalArgumentException("the NIXL connector needs a prefill/decode pod");
    }
    if (features.any() && release != VllmRelease.V1_CURRENT) {
      throw new IllegalArgumentException(
          "NIXL, LMCache and --kv-cache-metrics need the current release, got "
              + release.cliName());
    }
    if (features.lmcache() && info.dataParallel() > 1) {
      throw new IllegalArgumentException(
          "the simulated LMCache needs a single engine, got " + info.dataParallel());
    }
    this.features = features;
    if (lora.enabled() && info.dataParallel() > 1) {
      // PrometheusStatLogger: "LoRA in DP mode is not supported yet."
      throw new IllegalArgumentException("LoRA needs a single engine, got " + info.dataParallel());
    }
    this.release = release;
    this.speculativeTokens = speculativeTokens;
    this.lora = lora;
    if (mfu && release != VllmRelease.V1_CURRENT) {
      throw new IllegalArgumentException(
          "--enable-mfu-metrics needs the current release, got " + release.cliName());
    }
    this.mfu = mfu;
    if (sleep != VllmSleep.Stretch.NEVER && release != VllmRelease.V1_CURRENT) {
      throw new IllegalArgumentException(
          "engine_sleep_state needs the current release, got " + release.cliName());
    }
    this.sleep = sleep;
    start();
    syncSleep(startEpoch);
  }

  /**
   * The KV features a pod runs with.
   *
   * @param nixl whether its {@code --kv-transfer-config} names {@code NixlConnector}
   *     (prefill/decode pods only)
   * @param kvCacheMetrics whether it runs with {@code --kv-cache-metrics}
   * @param lmcache whether its {@code --kv-transfer-config} names {@code LMCacheConnectorV1}, with
   *     {@code PROMETHEUS_MULTIPROC_DIR} set so that its page carries LMCache's families
   *     (single-engine pods only)
   */
  public record Features(boolean nixl, boolean kvCacheMetrics, boolean lmcache) {
    /** None. */
    public static final Features NONE = new Features(false, false, false);

    /** Without LMCache. */
    public Features(boolean nixl, boolean kvCacheMetrics) {
      this(nixl, kvCacheMetrics, false);
    }

    boolean any() {
      return nixl || kvCacheMetrics || lmcache;
    }
  }

  @Override
  void enginesStarted() {
    for (EngineModel e : engines()) {
      e.setLora(lora);
    }
  }

  /**
   * Requests arriving from now on ask for {@code names} (the pod's {@code --max-loras} stays): an
   * adapter left out gets no more requests and leaves vLLM's lists once its last one finished.
   *
   * @throws IllegalArgumentException when the pod was started without LoRA
   */
  public void setLoraAdapters(List<String> names) {
    if (!lora.enabled()) {
      throw new IllegalArgumentException(info().name() + " runs without --enable-lora");
    }
    lora = new LoraAdapters(names, lora.maxLoras());
    enginesStarted();
  }

  /** The LoRA adapters requests ask for ({@link LoraAdapters#NONE} without LoRA). */
  public LoraAdapters lora() {
    return lora;
  }

  @Override
  EngineListener newListener(int index) {
    if (index == 0) {
      metrics.clear(); // a restart starts every counter from zero
    }
    VllmMetrics m =
        new VllmMetrics(
            profile().params().maxModelLen(),
            release.isV0(),
            info().role().equals("decode"),
            speculativeTokens);
    if (lora.enabled()) {
      m.enableLora(VllmLora.forRelease(release, lora.maxLoras()));
    }
    if (mfu) {
      m.enableMfu(VllmMfu.forWeights(profile().weightsMiB()));
    }
    if (features.nixl()) {
      m.enableNixl(new VllmNixl(info().tensorParallel(), profile().params().blockSize()));
    }
    if (features.kvCacheMetrics()) {
      m.enableKvResidency(new VllmKvResidency());
    }
    if (features.lmcache()) {
      m.enableLmcache(new VllmLmcache(info().tensorParallel()));
    }
    metrics.add(m);
    return m;
  }

  /** The release whose page this pod serves. */
  public VllmRelease release() {
    return release;
  }

  /** The counters of engine {@code index} (its {@code engine} label). */
  public VllmMetrics metrics(int index) {
    return metrics.get(index);
  }

  /** The simulator's truth: the sleep level at {@code epochSeconds}, 0 when awake. */
  public int sleepLevel(double epochSeconds) {
    return sleep.levelAt(epochSeconds);
  }

  @Override
  void advanceTo(double epochSeconds) {
    // stop at the edges of the stretch so the engines fall asleep and wake on time
    for (double edge : new double[] {sleep.from(), sleep.until()}) {
      if (edge > clockHint() && edge <= epochSeconds) {
        super.advanceTo(edge);
        syncSleep(edge);
      }
    }
    super.advanceTo(epochSeconds);
  }

  private void syncSleep(double now) {
    int level = sleep.levelAt(now);
    if (level == sleepLevel) {
      return;
    }
    sleepLevel = level;
    if (level > 0) {
      for (EngineModel e : engines()) {
        e.abortAll(now);
      }
    }
    applyEffects();
  }

  @Override
  ScenarioEffects effectsInForce(ScenarioEffects e) {
    if (sleepLevel == 0) {
      return e;
    }
    // the server answers 503 while asleep: no request reaches the engines
    return new ScenarioEffects(
        0,
        e.kvCapacityFactor(),
        e.slowdown(),
        e.maxNumSeqsCap(),
        e.outputFactor(),
        e.errorRate(),
        e.deferredFraction(),
        e.deferredBudget(),
        e.promptFactor(),
        e.prefixCaching());
  }

  @Override
  boolean gpuMemoryReleased(double epochSeconds) {
    return sleep.levelAt(epochSeconds) > 0;
  }

  @Override
  String renderPage(double now) {
    List<VllmPage.Engine> views = new ArrayList<>();
    List<EngineModel> engines = engines();
    for (int i = 0; i < engines.size(); i++) {
      views.add(new VllmPage.Engine(i, metrics.get(i), engines.get(i).state(), sleepLevel));
    }
    return VllmPage.render(
        new VllmPage.View(release, profile().name(), views, engineParams(), startEpoch(), now));
  }
}
