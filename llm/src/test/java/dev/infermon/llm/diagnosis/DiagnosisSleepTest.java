package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.vllm.VllmSleep;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A vLLM pod put to sleep (vLLM sleep mode) in the middle of the window: the diagnosis names it
 * {@code asleep}, with the sleep state as evidence, and neither a slow pod nor an idle GPU with a
 * queue; its awake peer is not called asleep. Checked against the simulator's truth of which pod
 * sleeps when.
 */
class DiagnosisSleepTest {
  @Test
  void theSleepingPodIsAsleepNotFailingAndItsPeerIsNeither() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .vllmSleep(new VllmSleep(1, 1, 600, 3600))
            .build();
    ScrapedFleet f = new ScrapedFleet(config).run(Duration.ofMinutes(20));
    VllmPod sleeper = (VllmPod) f.fleet.pods().get(0);
    String peer = f.fleet.pods().get(1).info().name();
    assertThat(sleeper.sleepLevel(f.now() / 1000.0)).isEqualTo(1);
    assertThat(((VllmPod) f.fleet.pods().get(1)).sleepLevel(f.now() / 1000.0)).isZero();

    Diagnosis d =
        new DiagnosisService(f.backend, Catalog.builtIn())
            .diagnose(
                new DiagnosisRequest(
                    OptionalLong.empty(),
                    OptionalLong.of(f.now()),
                    OptionalLong.empty(),
                    OptionalLong.empty()));

    List<Finding> onSleeper =
        d.findings().stream().filter(x -> x.pod().equals(sleeper.info().name())).toList();
    assertThat(onSleeper).extracting(Finding::state).contains(State.ASLEEP);
    assertThat(onSleeper)
        .extracting(Finding::state)
        .doesNotContain(State.SLOW_POD, State.IDLE_GPU_LONG_QUEUE);
    Finding asleep =
        onSleeper.stream().filter(x -> x.state() == State.ASLEEP).findFirst().orElseThrow();
    assertThat(asleep.summary()).contains("1 engine(s) asleep");
    assertThat(asleep.evidence()).isNotEmpty();
    assertThat(asleep.evidence().get(0).query()).contains("engine_sleep_state");
    assertThat(d.findings())
        .filteredOn(x -> x.pod().equals(peer))
        .extracting(Finding::state)
        .doesNotContain(State.ASLEEP);
  }
}
