package dev.infermon.simulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A simulated inference fleet: vLLM and SGLang pods driven by a queueing model, and one
 * dcgm-exporter per node. Time is simulated: {@link #advanceTo(long)} runs every pod's model up to
 * an instant (fast: hours of quiet traffic take milliseconds), and {@link #render(String)} writes a
 * pod's page as it would be scraped at the fleet's current time. A live server advances it with the
 * wall clock; a backfill starts it in the past and {@link #replay replays} history, rendering every
 * page at each step.
 *
 * <p>Thread-safe: every method locks the fleet, so an HTTP thread may render while a ticker
 * advances. Deterministic: the same config, seed, start time and call sequence give the same pages.
 */
public final class Fleet {
  private final FleetConfig config;
  private final List<InferencePod> pods;
  private final Map<String, SimTarget> targets = new LinkedHashMap<>();
  private final List<PodInfo> inventory;
  private double clock;

  private Fleet(FleetConfig config, FleetLayout layout, double start) {
    this.config = config;
    this.pods = List.copyOf(layout.pods());
    List<PodInfo> infos = new ArrayList<>();
    for (SimTarget t : layout.pods()) {
      targets.put(t.info().name(), t);
      infos.add(t.info());
    }
    for (SimTarget t : layout.exporters()) {
      targets.put(t.info().name(), t);
      infos.add(t.info());
    }
    for (RouterTarget router : RouterTarget.of(config, pods, start)) {
      targets.put(router.info().name(), router);
      infos.add(router.info());
    }
    this.inventory = Collections.unmodifiableList(infos);
    this.clock = start;
  }

  /**
   * A fleet whose pods start (empty, counters at zero) at {@code startEpochMillis}.
   *
   * @throws IllegalArgumentException if the pods do not fit on the configured nodes
   */
  public static Fleet create(FleetConfig config, long startEpochMillis) {
    if (config == null) {
      throw new IllegalArgumentException("config must not be null");
    }
    double start = startEpochMillis / 1000.0;
    return new Fleet(config, FleetLayout.build(config, start), start);
  }

  /** The configuration the fleet was built from. */
  public FleetConfig config() {
    return config;
  }

  /** Every scrape target: inference pods first, then the exporters, then the routers, if any. */
  public List<PodInfo> inventory() {
    return inventory;
  }

  /**
   * Tells the router in front of the pods the address each is scraped at ({@code host:port}), as a
   * router discovering pods by IP knows them; without, a pod's address is {@code <pod>:8000}.
   */
  public synchronized void routerAddresses(java.util.function.Function<PodInfo, String> hostPort) {
    for (SimTarget t : targets.values()) {
      if (t instanceof RouterTarget) {
        ((RouterTarget) t).addresses(hostPort);
      }
    }
  }

  /**
   * The ground truth of SGLang's model gateway in front ({@code --router smg}): the durations of
   * {@code model}'s successful requests that finished in {@code (fromMillis, toMillis]}, at most 15
   * minutes back; empty without that router.
   */
  public List<Double> gatewayDurations(String model, long fromMillis, long toMillis) {
    return routerDurations(RouterKind.SMG, model, fromMillis, toMillis);
  }

  /**
   * The ground truth of a router's latency histogram: the durations router {@code kind} timed for
   * {@code model}'s requests that finished in {@code (fromMillis, toMillis]}, at most 15 minutes
   * back (smg: successful requests; production-stack: every request, its own overhead included;
   * llm-d's EPP: every request whose stream ended); empty without that router.
   */
  public synchronized List<Double> routerDurations(
      RouterKind kind, String model, long fromMillis, long toMillis) {
    for (SimTarget t : targets.values()) {
      if (t instanceof RouterTarget && ((RouterTarget) t).kind() == kind) {
        return ((RouterTarget) t).durations(model, fromMillis / 1000.0, toMillis / 1000.0);
      }
    }
    return List.of();
  }

  /**
   * The ground truth of llm-d's TTFT histogram: the times to first byte the EPP timed for {@code
   * model}'s requests that finished in {@code (fromMillis, toMillis]}, at most 15 minutes back;
   * empty without llm-d.
   */
  public synchronized List<Double> routerTtfts(String model, long fromMillis, long toMillis) {
    return routerTtfts(RouterKind.LLM_D, model, fromMillis, toMillis);
  }

  /**
   * The ground truth of router {@code kind}'s TTFT histogram, as {@link #routerTtfts(String, long,
   * long)}: llm-d's EPP's or Dynamo's frontend's; empty without that router or for the others.
   */
  public synchronized List<Double> routerTtfts(
      RouterKind kind, String model, long fromMillis, long toMillis) {
    for (SimTarget t : targets.values()) {
      if (t instanceof RouterTarget && ((RouterTarget) t).kind() == kind) {
        return ((RouterTarget) t).ttfts(model, fromMillis / 1000.0, toMillis / 1000.0);
      }
    }
    return List.of();
  }

  /**
   * The ground truth of SGLang's model gateway in front of the SGLang prefill/decode pair: its
   * {@code smg_pd_ttft_seconds} ({@code ttft}), else its {@code
   * smg_router_request_duration_seconds{backend_type="pd"}} for {@code model}'s requests recorded
   * in {@code (fromMillis, toMillis]}, at most 15 minutes back; empty without that router.
   */
  public synchronized List<Double> gatewayPdTimes(
      String model, long fromMillis, long toMillis, boolean ttft) {
    for (SimTarget t : targets.values()) {
      if (t instanceof RouterTarget && ((RouterTarget) t).kind() == RouterKind.SMG) {
        return ((RouterTarget) t).pdTimed(model, fromMillis / 1000.0, toMillis / 1000.0, ttft);
      }
    }
    return List.of();
  }

  /** The fleet's simulated time, epoch milliseconds. */
  public synchronized long nowMillis() {
    return Math.round(clock * 1000);
  }

  /** Runs every pod up to {@code epochMillis}; an earlier instant is a no-op. */
  public synchronized void advanceTo(long epochMillis) {
    double t = epochMillis / 1000.0;
    if (t <= clock) {
      return;
    }
    for (SimTarget target : targets.values()) {
      target.advanceTo(t);
    }
    clock = t;
  }

  /** Runs every pod for {@code d} of simulated time. */
  public synchronized void advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("cannot advance by a negative duration: " + d);
    }
    advanceTo(nowMillis() + d.toMillis());
  }

  /**
   * The page of target {@code name} at the fleet's current time, or empty while it is down (a
   * restarting pod).
   *
   * @throws IllegalArgumentException for an unknown target
   */
  public synchronized Optional<String> render(String name) {
    return Optional.ofNullable(target(name).render(clock));
  }

  /**
   * What target {@code name} answers instead of a page when it serves none for good (llama-server
   * without {@code --metrics}), or empty.
   *
   * @throws IllegalArgumentException for an unknown target
   */
  public synchronized Optional<Refusal> refusal(String name) {
    return Optional.ofNullable(target(name).refusal());
  }

  /** Every page at the current time (targets that are down are left out). */
  public synchronized Snapshot snapshot() {
    Map<String, String> pages = new LinkedHashMap<>();
    for (Map.Entry<String, SimTarget> e : targets.entrySet()) {
      String page = e.getValue().render(clock);
      if (page != null) {
        pages.put(e.getKey(), page);
      }
    }
    return new Snapshot(nowMillis(), Collections.unmodifiableMap(pages));
  }

  /**
   * Steps the fleet to {@code untilEpochMillis} in steps of {@code step}, handing a {@link
   * Snapshot} to {@code sink} after each step: what a scraper with that interval would have seen.
   * The sink runs under the fleet's lock and must not call back into the fleet from another thread.
   */
  public void replay(long untilEpochMillis, Duration step, Consumer<Snapshot> sink) {
    if (step.isNegative() || step.isZero()) {
      throw new IllegalArgumentException("step must be positive: " + step);
    }
    synchronized (this) {
      for (long t = nowMillis() + step.toMillis(); t <= untilEpochMillis; t += step.toMillis()) {
        advanceTo(t);
        sink.accept(snapshot());
      }
    }
  }

  /** Applies {@code s} fleet-wide; slow-pod and pod-restart hit only the first inference pod. */
  public synchronized void setScenario(Scenario s) {
    if (s.singlePod()) {
      pods.get(0).setScenario(s, clock);
      return;
    }
    for (InferencePod p : pods) {
      p.setScenario(s, clock);
    }
  }

  /**
   * Applies {@code s} to one pod.
   *
   * @throws IllegalArgumentException for an unknown pod or an exporter
   */
  public synchronized void setScenario(Scenario s, String podName) {
    pod(podName).setScenario(s, clock);
  }

  /** The scenario a pod is in. */
  public synchronized Scenario scenario(String podName) {
    return pod(podName).scenario();
  }

  /**
   * The inference pod named {@code name}, for tests and tools that inspect the model directly. Its
   * methods must be called only while no other thread uses the fleet.
   *
   * @throws IllegalArgumentException for an unknown pod or an exporter
   */
  public synchronized InferencePod pod(String name) {
    SimTarget t = target(name);
    if (!(t instanceof InferencePod)) {
      throw new IllegalArgumentException("not an inference pod: \"" + name + "\"");
    }
    return (InferencePod) t;
  }

  /**
   * Ground truth for energy panels: the joules the GPUs attributed to pod {@code name} have used
   * since boot, as of their exporters' last collection (what their energy counters read).
   */
  public synchronized double gpuEnergyJoules(String name) {
    target(name);
    double mj = 0;
    for (SimTarget t : targets.values()) {
      if (t instanceof DcgmTarget) {
        mj += ((DcgmTarget) t).exporter().energyMillijoules(name);
      } else if (t instanceof AmdgpuTarget) {
        mj += ((AmdgpuTarget) t).exporter().energyMicrojoules(name) / 1000;
      }
    }
    return mj / 1000;
  }

  /**
   * The AMD device-metrics-exporter of the MI300X node pod {@code name} runs on, whose readings (as
   * of its last scrape) are the ground truth of that pod's GPU panels; empty when the pod runs on
   * an NVIDIA node.
   */
  public synchronized java.util.Optional<dev.infermon.simulator.amdgpu.AmdExporter> amdExporter(
      String name) {
    InferencePod pod = pod(name);
    for (SimTarget t : targets.values()) {
      if (t instanceof AmdgpuTarget && t.info().node().equals(pod.info().node())) {
        return java.util.Optional.of(((AmdgpuTarget) t).exporter());
      }
    }
    return java.util.Optional.empty();
  }

  /** The inference pods, in inventory order. */
  public List<InferencePod> pods() {
    return pods;
  }

  private SimTarget target(String name) {
    SimTarget t = targets.get(name);
    if (t == null) {
      throw new IllegalArgumentException("unknown target: \"" + name + "\"");
    }
    return t;
  }

  /**
   * Every page as a scrape at {@code timeMillis} would have seen it.
   *
   * @param timeMillis the simulated time, epoch milliseconds
   * @param pages target name to page text, in inventory order
   */
  public record Snapshot(long timeMillis, Map<String, String> pages) {}
}
