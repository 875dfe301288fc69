package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.model.EngineModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * NVIDIA Dynamo's frontend page ({@code simulate --router dynamo}) in the Rust prometheus crate's
 * layout (registry.rs gather, encoder/text.rs): families sorted by name, HELP then TYPE, labels
 * sorted by name with {@code le} last, no {@code _created}, integral values without a fraction; the
 * help texts and label names of metrics.rs @ 0014908a; and its values those of the pods behind.
 */
class DynamoFrontendPageTest {
  private static final long T0 = 1_790_000_000_000L;

  private static Fleet fleet(boolean pd) {
    return Fleet.create(
        FleetConfig.builder()
            .vllmPods(2)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(pd)
            .router(RouterKind.DYNAMO)
            .build(),
        T0);
  }

  private static String page(Fleet fleet) {
    PodInfo router = fleet.inventory().get(fleet.inventory().size() - 1);
    assertThat(router.name()).isEqualTo("dynamo-frontend-0");
    assertThat(router.targetLabels()).containsEntry("backend", "dynamo");
    return fleet.render(router.name()).orElseThrow();
  }

  @Test
  void theLayoutIsTheRustPrometheusCrates() {
    Fleet fleet = fleet(true);
    fleet.advance(Duration.ofMinutes(5));
    String text = page(fleet);
    PageChecker.strict(text);
    List<String> helped = new ArrayList<>();
    Matcher help = Pattern.compile("(?m)^# HELP (\\S+) (.*)\\n# TYPE \\1 (\\S+)$").matcher(text);
    Map<String, String> helps = new TreeMap<>();
    while (help.find()) {
      helped.add(help.group(1));
      helps.put(help.group(1), help.group(2));
    }
    assertThat(helped).isSorted().doesNotHaveDuplicates().hasSizeGreaterThanOrEqualTo(13);
    assertThat(text).doesNotContain("_created").doesNotContain(".0 ").doesNotContain("e-");
    // the help texts of Metrics::build
    assertThat(helps)
        .containsEntry("dynamo_frontend_requests_total", "Total number of LLM requests processed")
        .containsEntry("dynamo_frontend_inflight_requests", "Number of inflight requests")
        .containsEntry(
            "dynamo_frontend_queued_requests", "Number of requests in HTTP processing queue")
        .containsEntry("dynamo_frontend_request_duration_seconds", "Duration of LLM requests")
        .containsEntry(
            "dynamo_frontend_time_to_first_token_seconds", "Time to first token in seconds");
    // labels sorted by name, le last; bounds in Rust's Display
    assertThat(text)
        .containsPattern(
            "(?m)^dynamo_frontend_requests_total\\{endpoint=\"chat_completions\",error_type=\"\","
                + "model=\"[^\"]+\",request_type=\"stream\",status=\"success\"} [0-9]+$")
        .containsPattern(
            "(?m)^dynamo_frontend_time_to_first_token_seconds_bucket\\{model=\"[^\"]+\",le=\"0\"} ")
        .containsPattern(
            "(?m)^dynamo_frontend_time_to_first_token_seconds_bucket\\{model=\"[^\"]+\",le=\"0.0022\"} ")
        .containsPattern(
            "(?m)^dynamo_frontend_input_sequence_tokens_bucket\\{model=\"[^\"]+\",le=\"130000\"} ")
        .containsPattern(
            "(?m)^dynamo_frontend_request_duration_seconds_bucket\\{model=\"[^\"]+\",le=\"\\+Inf\"} ")
        .contains("\ndynamo_frontend_disconnected_clients 0\n");
  }

  @Test
  void inFlightIsWhatThePodsBehindHoldAndRequestsAreTheirs() {
    Fleet fleet = fleet(false);
    fleet.advance(Duration.ofMinutes(5));
    Page page = PageChecker.strict(page(fleet));
    Map<String, Double> inFlight = new TreeMap<>();
    Map<String, Double> queued = new TreeMap<>();
    for (InferencePod p : fleet.pods()) {
      for (EngineModel e : p.engines()) {
        var s = e.state();
        inFlight.merge(
            p.info().model(), (double) s.running() + s.waiting() + s.transferring(), Double::sum);
        queued.merge(p.info().model(), (double) s.waiting() + s.transferring(), Double::sum);
      }
    }
    double started = 0;
    for (InferencePod p : fleet.pods()) {
      started += dev.infermon.simulator.router.LlmdEpp.sent(p);
    }
    for (String model : inFlight.keySet()) {
      assertThat(page.value("dynamo_frontend_active_requests", "model", model))
          .as(model)
          .isEqualTo(inFlight.get(model));
      assertThat(page.value("dynamo_frontend_inflight_requests", "model", model))
          .isEqualTo(inFlight.get(model));
      assertThat(page.value("dynamo_frontend_queued_requests", "model", model))
          .isEqualTo(queued.get(model));
    }
    assertThat(page.sum("dynamo_frontend_requests_started_total")).isEqualTo(started).isPositive();
    // every request started is finished (requests_total, one duration each) or in flight
    double finished = page.sum("dynamo_frontend_requests_total");
    double inFlightAll = inFlight.values().stream().mapToDouble(Double::doubleValue).sum();
    assertThat(finished + inFlightAll).isEqualTo(started);
    assertThat(page.sum("dynamo_frontend_request_duration_seconds_count")).isEqualTo(finished);
  }
}
