package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Family;
import dev.infermon.simulator.PageChecker.Page;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The simulated TGI page has the real page's shape (capture {@code tgi-2.4-3.x_datadog-e2e.txt}):
 * the same families with the same types, HELP texts (or none) and labels, the same duration bounds
 * written the same way, an empty line after every family, no {@code _created} series, no model
 * label; and its counters agree with each other as TGI's do.
 */
class TgiPageShapeTest {
  static final long START = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  static Fleet tgiFleet(Scenario scenario) {
    FleetConfig c =
        FleetConfig.builder()
            .vllmPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .tgiPods(1)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .scenario(scenario)
            .build();
    Fleet fleet = Fleet.create(c, START);
    fleet.advance(Duration.ofMinutes(10));
    return fleet;
  }

  static String tgiPage(Fleet fleet) {
    return fleet.render(fleet.inventory().get(0).name()).orElseThrow();
  }

  @Test
  void familiesHaveTheCapturesTypesHelpAndLabels() {
    Page real = PageChecker.lenient(Fixtures.capture("tgi-2.4-3.x_datadog-e2e.txt"));
    Page sim = PageChecker.strict(tgiPage(tgiFleet(Scenario.ERROR_SPIKE)));
    for (Family r : real.families.values()) {
      Family s = sim.family(r.name);
      assertThat(s.type).as(r.name).isEqualTo(r.type);
      assertThat(s.help).as(r.name).isEqualTo(r.help);
      assertThat(s.labelNames()).as(r.name).isEqualTo(r.labelNames());
    }
    assertThat(sim.families.keySet()).containsExactlyInAnyOrderElementsOf(real.families.keySet());
    for (String name :
        List.of(
            "tgi_request_duration",
            "tgi_request_queue_duration",
            "tgi_batch_forward_duration",
            "tgi_batch_next_size")) {
      assertThat(sim.family(name).buckets()).as(name).isEqualTo(real.family(name).buckets());
    }
  }

  @Test
  void everyFamilyEndsWithAnEmptyLineAndNoSeriesIsCreatedOrModelled() {
    String page = tgiPage(tgiFleet(Scenario.HEALTHY));
    assertThat(page).endsWith("\n\n").doesNotContain("_created").doesNotContain("model");
    for (String block : page.substring(0, page.length() - 2).split("\n\n")) {
      assertThat(block).startsWith("# ");
      assertThat(block.lines().filter(l -> l.startsWith("# TYPE ")).count()).isEqualTo(1);
    }
  }

  @Test
  void countersAgreeAsTgisDo() {
    Fleet fleet = tgiFleet(Scenario.ERROR_SPIKE);
    TgiPod pod = (TgiPod) fleet.pods().get(0);
    Page sim = PageChecker.strict(tgiPage(fleet));
    long success = pod.metrics().requestSuccess();
    long failed = pod.metrics().failed();
    assertThat(success).isPositive();
    assertThat(failed).isPositive();
    // arrivals include the requests still in flight; each leaves as a success or a failure
    assertThat(pod.metrics().requestCount()).isGreaterThanOrEqualTo(success + failed);
    assertThat(value(sim, "tgi_request_success", "")).isEqualTo(success);
    assertThat(value(sim, "tgi_request_duration_count", "")).isEqualTo(success);
    assertThat(value(sim, "tgi_request_generated_tokens_count", "")).isEqualTo(success);
    assertThat(value(sim, "tgi_request_input_length_count", ""))
        .isEqualTo(pod.metrics().requestCount());
  }

  @Test
  void aRouterThatServedNothingShowsAnEmptyPage() {
    assertThat(
            dev.infermon.simulator.tgi.TgiPage.render(
                new dev.infermon.simulator.tgi.TgiMetrics(8191, 8192)))
        .isEmpty();
  }

  private static double value(Page page, String sample, String labels) {
    for (Family f : page.families.values()) {
      for (PageChecker.Sample s : f.samples) {
        if (s.name().equals(sample) && s.labelNames().isEmpty() == labels.isEmpty()) {
          return s.value();
        }
      }
    }
    throw new AssertionError("no sample " + sample);
  }
}
