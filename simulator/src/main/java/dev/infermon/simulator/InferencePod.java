package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineListener;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.EngineParams;
import dev.infermon.simulator.model.FinishReason;
import dev.infermon.simulator.model.GpuActivity;
import dev.infermon.simulator.model.KvCeiling;
import dev.infermon.simulator.model.LoadShape;
import dev.infermon.simulator.model.Request;
import dev.infermon.simulator.model.Rng;
import dev.infermon.simulator.model.ScenarioEffects;
import dev.infermon.simulator.model.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * An inference pod: one or more engine cores (data parallelism), a scenario, and a lifecycle. A
 * restart throws the engines and their counters away; the pod is down for {@link
 * Scenario#RESTART_DOWNTIME_SECONDS} and comes back with fresh engines, which is what resets its
 * counters. Not thread-safe; the {@link Fleet} serialises access.
 */
public abstract class InferencePod extends SimTarget {
  private final ModelProfile profile;
  private final long seed;
  private final LoadShape shape;
  private final Workload.Phase phase;
  private final String arrivalKey;
  private Scenario scenario;
  private double startEpoch;
  private double downUntil = Double.NEGATIVE_INFINITY;
  private int restarts;
  private double clock;
  private List<EngineModel> engines = List.of();
  private FinishObserver finishObserver;
  private DynamoWorker dynamoWorker;

  InferencePod(
      PodInfo info,
      ModelProfile profile,
      long seed,
      LoadShape shape,
      Workload.Phase phase,
      String arrivalKey,
      Scenario scenario,
      double startEpoch) {
    super(info);
    this.profile = profile;
    this.seed = seed;
    this.shape = shape;
    this.phase = phase;
    this.arrivalKey = arrivalKey;
    this.scenario = scenario == Scenario.POD_RESTART ? Scenario.HEALTHY : scenario;
    this.startEpoch = startEpoch;
    this.clock = startEpoch;
  }

  /** Builds the engines after construction (subclasses create their metrics there). */
  final void start() {
    engines = createEngines(startEpoch);
    applyEffects();
    enginesStarted();
  }

  /** Called after the engines were (re)created. */
  void enginesStarted() {}

  private List<EngineModel> createEngines(double at) {
    List<EngineModel> out = new ArrayList<>();
    int dp = info().dataParallel();
    for (int i = 0; i < dp; i++) {
      // the two sides of a PD pair share their arrival key, so they see the same requests
      long engineSeed = Rng.derive(seed, arrivalKey + "#" + restarts + "#" + i);
      out.add(
          new EngineModel(
              engineParams(),
              profile.workload().withPhase(phase),
              shape,
              engineSeed,
              new FinishTap(newListener(i), this),
              at));
    }
    return out;
  }

  EngineParams engineParams() {
    EngineParams p = profile.params();
    return phase == Workload.Phase.DECODE ? p.withTransferPerToken(2e-6) : p;
  }

  /** A fresh metrics listener for engine {@code index} (called at start and on every restart). */
  abstract EngineListener newListener(int index);

  /**
   * Who else hears of each request this pod's engines finish, from now on and across restarts (a
   * router in front timing what it forwarded); none by default.
   */
  void onFinish(FinishObserver observer) {
    finishObserver = observer;
  }

  /**
   * Runs the pod's engine as an NVIDIA Dynamo worker from now on: its page becomes the worker's
   * system server page ({@link DynamoWorker}), the runtime's families before the engine's.
   */
  void runAsDynamoWorker() {
    dynamoWorker = DynamoWorker.of(this);
  }

  /** Request {@code r} left one of the engines at {@code now}. */
  void finished(Request r, FinishReason reason, double now) {
    if (dynamoWorker != null) {
      dynamoWorker.finished(r, now);
    }
    if (finishObserver != null) {
      finishObserver.finished(r, reason, now);
    }
  }

  /** Hears of each request a pod's engines finish. */
  interface FinishObserver {
    /**
     * Request {@code r} left at {@code now} (epoch seconds), {@code now - r.arrival()} after it
     * arrived.
     */
    void finished(Request r, FinishReason reason, double now);
  }

  /** The served model. */
  public ModelProfile profile() {
    return profile;
  }

  /**
   * The simulator's ground truth for this pod's capacity: the steady request rate (per second, all
   * its engines together) at which its KV cache reaches its ceiling under the scenario in force
   * ({@link KvCeiling}: preemptions begin or the cache stays full). Costs a few seconds of
   * simulation; the scenario's arrival factor is not part of it.
   */
  public double kvCeilingRequestRate() {
    double perEngine =
        KvCeiling.requestRate(
            engineParams(),
            profile.workload().withPhase(phase),
            scenario.effects(),
            Rng.derive(seed, arrivalKey + "#ceiling"));
    return perEngine * info().dataParallel();
  }

  /** The engines now running (empty while the pod is down). */
  public List<EngineModel> engines() {
    return engines;
  }

  /** The scenario in force. */
  public Scenario scenario() {
    return scenario;
  }

  /** How often the pod restarted. */
  public int restarts() {
    return restarts;
  }

  /** When the current incarnation started, epoch seconds. */
  public double startEpoch() {
    return startEpoch;
  }

  /** Whether the pod serves its page at {@code epochSeconds}. */
  public boolean up(double epochSeconds) {
    return epochSeconds >= downUntil;
  }

  void setScenario(Scenario s, double now) {
    if (s == Scenario.POD_RESTART) {
      restart(now);
      return;
    }
    scenario = s;
    applyEffects();
  }

  final void applyEffects() {
    for (EngineModel e : engines) {
      e.setEffects(effectsInForce(scenario.effects()));
    }
  }

  /**
   * What the engines run under given the scenario's {@code effects} (a sleeping pod admits none).
   */
  ScenarioEffects effectsInForce(ScenarioEffects effects) {
    return effects;
  }

  /** Whether the pod has released its GPU memory at {@code epochSeconds} (vLLM's sleep mode). */
  boolean gpuMemoryReleased(double epochSeconds) {
    return false;
  }

  private void restart(double now) {
    restarts++;
    downUntil = now + Scenario.RESTART_DOWNTIME_SECONDS;
    startEpoch = downUntil;
    engines = createEngines(startEpoch);
    applyEffects();
    enginesStarted();
  }

  @Override
  void advanceTo(double epochSeconds) {
    clock = Math.max(clock, epochSeconds);
    for (EngineModel e : engines) {
      e.advanceTo(epochSeconds);
    }
  }

  /** The latest time the pod was advanced to. */
  double clockHint() {
    return clock;
  }

  /** Cumulative GPU activity of engine {@code index}; zeros while the pod is down. */
  GpuActivity.Reading activity(int index) {
    return index < engines.size() ? engines.get(index).gpu().read() : GpuActivity.Reading.ZERO;
  }

  /** Framebuffer in use on one of engine {@code index}'s GPUs at {@code now}, MiB. */
  double memoryUsedMiB(int index, double now) {
    if (!up(now) || index >= engines.size()) {
      return 1;
    }
    if (gpuMemoryReleased(now)) {
      // weights and KV pool freed; the CUDA context, graphs and buffers outside vLLM's sleep
      // allocator stay ("releasing up to 90%+ of GPU memory", vLLM docs/features/sleep_mode.md)
      return 0.05 * 81559;
    }
    // weights + the KV pool are allocated at start-up (gpu_memory_utilization 0.9); activations
    // and the sampler's buffers grow with the batch
    int running = engines.get(index).state().running();
    return 0.885 * 81559 + 0.015 * 81559 * Math.min(1.0, running / 64.0);
  }

  @Override
  final String render(double epochSeconds) {
    if (!up(epochSeconds)) {
      return null;
    }
    String page = renderPage(epochSeconds);
    return dynamoWorker == null ? page : dynamoWorker.page(page);
  }

  abstract String renderPage(double epochSeconds);
}
