package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.model.GpuActivity;
import dev.infermon.simulator.text.Histogram;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each scenario bends the queueing model the way the diagnosis expects, checked on the simulator's
 * own state over simulated time: one healthy warm-up, then the scenario, sampled every 15 s.
 */
class ScenarioInvariantsTest {
  private static final long T0 = 1_790_000_000_000L;

  /** One current vLLM pod serving the 8B model. */
  static Fleet onePod(String model) {
    FleetConfig c =
        FleetConfig.builder()
            .vllmPods(1)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(model))
            .build();
    return Fleet.create(c, T0);
  }

  /** What the test samples every 15 s. */
  record Run(List<EngineState> states, double ttftP95Before, double ttftP95After, VllmPod pod) {
    List<Double> kv() {
      return states.stream().map(EngineState::kvUsage).toList();
    }

    List<Integer> waiting() {
      return states.stream().map(EngineState::waiting).toList();
    }
  }

  static Run run(Scenario scenario, int minutes) {
    Fleet fleet = onePod(ModelProfile.LLAMA_8B.name());
    VllmPod pod = (VllmPod) fleet.pods().get(0);
    fleet.advance(Duration.ofMinutes(15));
    Histogram before = copy(pod.metrics(0).ttft());
    fleet.setScenario(scenario, pod.info().name());
    List<EngineState> states = new ArrayList<>();
    for (int i = 0; i < minutes * 4; i++) {
      fleet.advance(Duration.ofSeconds(15));
      states.add(pod.engines().get(0).state());
    }
    Histogram all = copy(pod.metrics(0).ttft());
    return new Run(states, quantile(before, null, 0.95), quantile(all, before, 0.95), pod);
  }

  @Test
  void healthyNeitherQueuesNorFillsTheCache() {
    Run r = run(Scenario.HEALTHY, 60);
    assertThat(r.waiting()).allMatch(w -> w < 5);
    assertThat(r.kv()).allMatch(kv -> kv < 0.5);
    assertThat(r.pod().metrics(0).preemptions()).isZero();
    assertThat(r.ttftP95After()).isLessThan(1.0);
  }

  @Test
  void saturatedQueueGrowsAndTtftRises() {
    Run r = run(Scenario.SATURATED, 20);
    List<Integer> w = r.waiting();
    assertThat(w.get(4)).as("after 1 min").isGreaterThan(10);
    assertThat(w.get(19)).as("after 5 min").isGreaterThan(w.get(4) * 3);
    assertThat(r.ttftP95After()).isGreaterThan(r.ttftP95Before() * 10).isGreaterThan(5.0);
  }

  @Test
  void kvPressureKeepsTheCacheNearlyFullAndPreempts() {
    Run r = run(Scenario.KV_PRESSURE, 30);
    List<Double> kv = r.kv().subList(20, r.kv().size()); // after 5 minutes of pressure
    // a preempted request frees its blocks for an instant before the next one takes them
    long above = kv.stream().filter(v -> v > 0.9).count();
    assertThat(above).isGreaterThanOrEqualTo(Math.round(kv.size() * 0.9));
    assertThat(kv.stream().sorted().toList().get(kv.size() / 2)).isGreaterThan(0.95);
    assertThat(r.pod().metrics(0).preemptions()).isGreaterThan(100);
  }

  @Test
  void deferredByConfigWaitsForTheScarceSlotNotForCapacity() {
    Run r = run(Scenario.DEFERRED_BY_CONFIG, 20);
    EngineState last = r.states().get(r.states().size() - 1);
    assertThat(last.waitingDeferred()).isGreaterThan(50);
    assertThat(last.waitingCapacity()).isLessThan(last.waitingDeferred() / 10 + 1);
    assertThat(r.kv()).allMatch(kv -> kv < 0.5);
  }

  @Test
  void idleGpuWithALongQueue() {
    Fleet fleet = onePod(ModelProfile.LLAMA_8B.name());
    VllmPod pod = (VllmPod) fleet.pods().get(0);
    fleet.advance(Duration.ofMinutes(10));
    fleet.setScenario(Scenario.IDLE_GPU_LONG_QUEUE, pod.info().name());
    fleet.advance(Duration.ofMinutes(5));
    GpuActivity.Reading start = pod.engines().get(0).gpu().read();
    fleet.advance(Duration.ofMinutes(10));
    GpuActivity.Ratios gpu = pod.engines().get(0).gpu().read().since(start);
    EngineState s = pod.engines().get(0).state();
    assertThat(s.waitingCapacity()).isGreaterThan(100);
    assertThat(s.running()).isLessThanOrEqualTo(2);
    assertThat(gpu.sm()).isLessThan(0.3);
    assertThat(gpu.tensor()).isLessThan(0.2);
  }

  @Test
  void slowPodStandsOutAgainstAHealthyPeer() {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(2)
                .dataParallelPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .models(List.of(ModelProfile.LLAMA_8B.name()))
                .build(),
            T0);
    fleet.setScenario(Scenario.SLOW_POD);
    fleet.advance(Duration.ofMinutes(30));
    VllmPod slow = (VllmPod) fleet.pods().get(0);
    VllmPod peer = (VllmPod) fleet.pods().get(1);
    assertThat(fleet.scenario(slow.info().name())).isEqualTo(Scenario.SLOW_POD);
    assertThat(fleet.scenario(peer.info().name())).isEqualTo(Scenario.HEALTHY);
    assertThat(mean(slow.metrics(0).ttft())).isGreaterThan(2 * mean(peer.metrics(0).ttft()));
  }

  @Test
  void longPromptsSlowTheFirstTokenWithoutAQueue() {
    Run r = run(Scenario.LONG_PROMPTS, 20);
    assertThat(r.waiting()).allMatch(w -> w < 5);
    assertThat(r.kv()).allMatch(kv -> kv < 0.9);
    assertThat(r.pod().metrics(0).preemptions()).isZero();
    assertThat(r.ttftP95After()).isGreaterThan(2.0).isGreaterThan(r.ttftP95Before() * 3);
  }

  @Test
  void errorSpikeFailsAboutAFifthOfTheRequests() {
    Run r = run(Scenario.ERROR_SPIKE, 30);
    double errors = r.pod().metrics(0).finished("error");
    double all = r.pod().engines().get(0).finishedCount();
    assertThat(errors / all).isBetween(0.08, 0.25); // the warm-up quarter hour had none
  }

  static double mean(Histogram h) {
    return h.sum() / h.count();
  }

  static Histogram copy(Histogram h) {
    Histogram c = new Histogram(h.bounds());
    c.add(h);
    return c;
  }

  /**
   * The quantile of the observations in {@code now} minus {@code before}, as PromQL interpolates.
   */
  static double quantile(Histogram now, Histogram before, double q) {
    int n = now.size() + 1;
    long[] a = new long[n];
    now.cumulativeInto(a);
    if (before != null) {
      long[] b = new long[n];
      before.cumulativeInto(b);
      for (int i = 0; i < n; i++) {
        a[i] -= b[i];
      }
    }
    double rank = q * a[n - 1];
    for (int i = 0; i < n; i++) {
      if (a[i] >= rank) {
        if (i == n - 1) {
          return now.bound(n - 2);
        }
        double lo = i == 0 ? 0 : now.bound(i - 1);
        long below = i == 0 ? 0 : a[i - 1];
        return lo + (now.bound(i) - lo) * (rank - below) / Math.max(1, a[i] - below);
      }
    }
    return Double.NaN;
  }
}
