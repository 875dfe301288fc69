package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Family;
import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.PageChecker.Sample;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Counters tell the truth: token totals match the requests, nothing decreases except across a
 * restart, and the same seed gives the same pages.
 */
class CounterInvariantsTest {
  private static final long T0 = 1_790_000_000_000L;

  @Test
  void vllmGenerationTokensAreTheFinishedOutputsPlusThoseInFlight() {
    Fleet fleet = ScenarioInvariantsTest.onePod(ModelProfile.LLAMA_8B.name());
    VllmPod pod = (VllmPod) fleet.pods().get(0);
    fleet.setScenario(Scenario.KV_PRESSURE, pod.info().name()); // preemptions must not double count
    for (int i = 0; i < 4; i++) {
      fleet.advance(Duration.ofMinutes(5));
      Page page = PageChecker.strict(fleet.render(pod.info().name()).orElseThrow());
      double counter = page.value("vllm:generation_tokens_total");
      double finished = page.value("vllm:request_generation_tokens_sum");
      long inFlight = pod.engines().get(0).generatedInFlight();
      assertThat(counter).isEqualTo(finished + inFlight);
      assertThat(pod.metrics(0).preemptions()).isPositive();
    }
  }

  @Test
  void sglangCountsTokensWhenRequestsFinish() {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(1)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .build(),
            T0);
    String name = fleet.pods().get(0).info().name();
    fleet.advance(Duration.ofMinutes(20));
    Page page = PageChecker.strict(fleet.render(name).orElseThrow());
    double counter = page.value("sglang:generation_tokens_total");
    assertThat(counter)
        .isPositive()
        .isEqualTo(page.value("sglang:generation_tokens_histogram_sum"));
    assertThat(page.value("sglang:num_requests_total"))
        .isEqualTo(page.value("sglang:e2e_request_latency_seconds_count"));
  }

  @Test
  void countersNeverDecreaseExceptAcrossARestart() {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(2)
                .sglangPods(1)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .build(),
            T0);
    String restarted = fleet.pods().get(0).info().name();
    Map<String, Map<String, Double>> previous = new HashMap<>();
    Set<String> decreased = new HashSet<>();
    Set<String> missing = new HashSet<>();
    int[] step = {0};
    fleet.replay(
        T0 + Duration.ofMinutes(6).toMillis(),
        Duration.ofSeconds(15),
        snap -> {
          if (++step[0] == 12) {
            fleet.setScenario(Scenario.POD_RESTART); // restarts the first pod only
          }
          for (PodInfo target : fleet.inventory()) {
            String text = snap.pages().get(target.name());
            if (text == null) {
              missing.add(target.name());
              continue;
            }
            Map<String, Double> now = monotonic(PageChecker.strict(text));
            Map<String, Double> before = previous.put(target.name(), now);
            if (before == null) {
              continue;
            }
            for (Map.Entry<String, Double> e : now.entrySet()) {
              Double old = before.get(e.getKey());
              if (old != null && e.getValue() < old) {
                decreased.add(target.name());
                assertThat(target.name()).as("decrease of " + e.getKey()).isEqualTo(restarted);
              }
            }
          }
        });
    assertThat(missing).as("down while restarting").containsExactly(restarted);
    assertThat(decreased).as("counters reset by the restart").containsExactly(restarted);
    assertThat(fleet.pods().get(0).restarts()).isEqualTo(1);
    assertThat(fleet.scenario(restarted)).isEqualTo(Scenario.HEALTHY);
  }

  /** Every sample that must never decrease: counters and histogram series, keyed by series. */
  private static Map<String, Double> monotonic(Page page) {
    Map<String, Double> out = new HashMap<>();
    for (Family f : page.families.values()) {
      if (!f.type.equals("counter") && !f.type.equals("histogram")) {
        continue;
      }
      for (Sample s : f.samples) {
        out.put(s.name() + "{" + s.seriesKey() + "le=" + s.label("le") + "}", s.value());
      }
    }
    return out;
  }

  @Test
  void theSameSeedGivesTheSamePagesAndAnotherSeedOthers() {
    List<Fleet.Snapshot> runs = new java.util.ArrayList<>();
    for (long seed : new long[] {7, 7, 8}) {
      Fleet f = Fleet.create(FleetConfig.builder().seed(seed).build(), T0);
      f.advance(Duration.ofMinutes(4));
      f.setScenario(Scenario.SATURATED);
      f.advance(Duration.ofSeconds(40));
      runs.add(f.snapshot());
    }
    assertThat(runs.get(0).pages()).isEqualTo(runs.get(1).pages());
    String pod = runs.get(0).pages().keySet().iterator().next();
    assertThat(runs.get(2).pages().get(pod)).isNotEqualTo(runs.get(0).pages().get(pod));
  }
}
