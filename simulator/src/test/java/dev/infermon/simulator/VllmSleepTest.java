package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.vllm.VllmSleep;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * vLLM's sleep mode on simulated pods: the sleeping pod's page says so ({@code
 * vllm:engine_sleep_state} at its level), its engine holds nothing and counts no tokens while
 * asleep, the requests in flight when it fell asleep are aborted (vLLM's default pause mode), and
 * it serves again once woken. The pod left awake is untouched.
 */
class VllmSleepTest {
  private static final long T0 = 1_767_225_600_000L;

  private static Fleet fleet(VllmSleep sleep) {
    return Fleet.create(
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of("meta-llama/Llama-3.1-8B-Instruct"))
            .vllmSleep(sleep)
            .build(),
        T0);
  }

  private static Page page(Fleet f, String pod) {
    return PageChecker.strict(f.render(pod).orElseThrow());
  }

  private static double tokens(Fleet f, String pod) {
    return page(f, pod).value("vllm:generation_tokens_total");
  }

  private static double aborted(Fleet f, String pod) {
    return page(f, pod).value("vllm:request_success_total", "finished_reason", "abort");
  }

  private static double state(Fleet f, String pod, String sleepState) {
    return page(f, pod).value("vllm:engine_sleep_state", "sleep_state", sleepState);
  }

  @Test
  void theFirstPodSleepsAtLevelTwoForItsStretchAndServesNothingMeanwhile() {
    Fleet f = fleet(new VllmSleep(1, 2, 60, 120));
    VllmPod sleeper = (VllmPod) f.pods().get(0);
    String s = sleeper.info().name();
    String awake = f.pods().get(1).info().name();

    f.advanceTo(T0 + 59_990);
    assertThat(sleeper.sleepLevel(f.nowMillis() / 1000.0)).isZero();
    assertThat(state(f, s, "awake")).isEqualTo(1);
    assertThat(state(f, s, "discard_all")).isZero();
    EngineState before = sleeper.engines().get(0).state();
    assertThat(before.running()).isPositive();
    double abortedBefore = aborted(f, s);

    f.advanceTo(T0 + 61_000);
    assertThat(sleeper.sleepLevel(f.nowMillis() / 1000.0)).isEqualTo(2);
    assertThat(state(f, s, "awake")).isZero();
    assertThat(state(f, s, "weights_offloaded")).isZero();
    assertThat(state(f, s, "discard_all")).isEqualTo(1);
    Page asleep = page(f, s);
    assertThat(asleep.value("vllm:num_requests_running")).isZero();
    assertThat(asleep.value("vllm:num_requests_waiting")).isZero();
    assertThat(asleep.value("vllm:kv_cache_usage_perc")).isZero();
    // what was in the engine at the edge (plus the last 10 ms of arrivals) was aborted
    assertThat(aborted(f, s) - abortedBefore)
        .isGreaterThanOrEqualTo(before.running() + before.waiting());
    double asleepTokens = tokens(f, s);
    double otherTokens = tokens(f, awake);

    f.advanceTo(T0 + 179_000);
    assertThat(tokens(f, s)).isEqualTo(asleepTokens);
    assertThat(page(f, s).value("vllm:num_requests_running")).isZero();
    assertThat(tokens(f, awake)).isGreaterThan(otherTokens);
    assertThat(state(f, awake, "awake")).isEqualTo(1);
    assertThat(sleeper.memoryUsedMiB(0, f.nowMillis() / 1000.0))
        .isLessThan(f.pods().get(1).memoryUsedMiB(0, f.nowMillis() / 1000.0) / 10);

    f.advanceTo(T0 + 240_000);
    assertThat(sleeper.sleepLevel(f.nowMillis() / 1000.0)).isZero();
    assertThat(state(f, s, "awake")).isEqualTo(1);
    assertThat(state(f, s, "discard_all")).isZero();
    assertThat(tokens(f, s)).isGreaterThan(asleepTokens);
  }

  @Test
  void levelOneReadsWeightsOffloaded() {
    Fleet f = fleet(new VllmSleep(2, 1, 0, 30));
    f.advanceTo(T0 + 10_000);
    for (InferencePod p : f.pods()) {
      assertThat(state(f, p.info().name(), "weights_offloaded")).isEqualTo(1);
      assertThat(state(f, p.info().name(), "awake")).isZero();
      assertThat(tokens(f, p.info().name())).isZero();
    }
  }

  @Test
  void badSleepsAreRefusedByName() {
    assertThatThrownBy(() -> new VllmSleep(1, 3, 0, 10)).hasMessageContaining("level");
    assertThatThrownBy(() -> new VllmSleep(-1, 1, 0, 10)).hasMessageContaining("pods");
    assertThatThrownBy(() -> fleet(new VllmSleep(3, 1, 0, 10))).hasMessageContaining("vllmSleep");
  }
}
