package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.router.LlmdEpp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The page of a pod behind NVIDIA Dynamo's frontend ({@code simulate --router dynamo}): a Dynamo
 * worker's system server page, the runtime's {@code dynamo_component_*} families in the Rust
 * prometheus crate's layout (push_handler.rs @ c3c46316's help texts, the hierarchy labels and
 * {@code model} sorted, {@code le} last, the crate's default buckets) followed by the engine's own
 * lines filtered to its prefix (prometheus.py @ 041ec8b0 get_prometheus_expfmt): no {@code
 * python_}, {@code process_} or blank line; and its counts those of the pod's engine.
 */
class DynamoWorkerPageTest {
  private static final long T0 = 1_790_000_000_000L;

  private static Fleet fleet(RouterKind router) {
    return Fleet.create(
        FleetConfig.builder()
            .vllmPods(1)
            .legacyVllmPods(0)
            .dataParallelPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .router(router)
            .build(),
        T0);
  }

  private static InferencePod pod(Fleet fleet, Class<?> type) {
    return fleet.pods().stream().filter(type::isInstance).findFirst().orElseThrow();
  }

  @Test
  void aVllmWorkersPageIsTheRuntimesFamiliesThenVllms() {
    Fleet fleet = fleet(RouterKind.DYNAMO);
    fleet.advance(Duration.ofMinutes(5));
    InferencePod pod = pod(fleet, VllmPod.class);
    String text = fleet.render(pod.info().name()).orElseThrow();
    Page page = PageChecker.strict(text);
    assertThat(text).startsWith("# HELP dynamo_component_inflight_requests ");
    List<String> families = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^# TYPE (\\S+) ").matcher(text);
    while (m.find()) {
      families.add(m.group(1));
    }
    List<String> runtime = families.stream().filter(f -> f.startsWith("dynamo_")).toList();
    assertThat(runtime)
        .containsExactly(
            "dynamo_component_inflight_requests",
            "dynamo_component_request_bytes_total",
            "dynamo_component_request_duration_seconds",
            "dynamo_component_requests_total",
            "dynamo_component_response_bytes_total");
    assertThat(families.subList(runtime.size(), families.size()))
        .isNotEmpty()
        .allMatch(f -> f.startsWith("vllm:") || f.startsWith("lmcache:"));
    assertThat(text).doesNotContain("\n\n").doesNotContain("python_").doesNotContain("process_");
    assertThat(text)
        .contains(
            "\n# HELP dynamo_component_requests_total Total number of requests processed by work"
                + " handler\n")
        .containsPattern(
            "(?m)^dynamo_component_requests_total\\{dynamo_component=\"backend\","
                + "dynamo_endpoint=\"generate\",dynamo_namespace=\"dynamo\",model=\""
                + Pattern.quote(pod.info().model())
                + "\"} [0-9]+$")
        .containsPattern(
            "(?m)^dynamo_component_request_duration_seconds_bucket\\{dynamo_component=\"backend\","
                + "dynamo_endpoint=\"clear_kv_blocks\",dynamo_namespace=\"dynamo\",model=\"[^\"]+\","
                + "le=\"0.005\"} 0$")
        .containsPattern("(?m)^dynamo_component_request_duration_seconds_bucket\\{.*le=\"1\"} ");
    // counted on arrival; in flight until the stream ends; one duration per finished request
    long arrived = LlmdEpp.sent(pod);
    double inFlight = 0;
    for (EngineModel e : pod.engines()) {
      var s = e.state();
      inFlight += s.running() + s.waiting() + s.transferring();
    }
    String generate = "generate";
    assertThat(page.value("dynamo_component_requests_total", "dynamo_endpoint", generate))
        .isEqualTo((double) arrived)
        .isPositive();
    assertThat(page.value("dynamo_component_inflight_requests", "dynamo_endpoint", generate))
        .isEqualTo(inFlight);
    assertThat(
            page.value(
                "dynamo_component_request_duration_seconds_count", "dynamo_endpoint", generate))
        .isEqualTo(arrived - inFlight);
  }

  @Test
  void anSglangWorkersEngineLinesAreSglangsAndAPodWithoutTheFrontendKeepsItsPage() {
    Fleet fleet = fleet(RouterKind.DYNAMO);
    fleet.advance(Duration.ofMinutes(5));
    String text = fleet.render(pod(fleet, SglangPod.class).info().name()).orElseThrow();
    PageChecker.strict(text);
    assertThat(text).startsWith("# HELP dynamo_component_inflight_requests ").contains("\nsglang:");
    Fleet plain = fleet(RouterKind.NONE);
    plain.advance(Duration.ofMinutes(5));
    assertThat(plain.render(pod(plain, VllmPod.class).info().name()).orElseThrow())
        .doesNotContain("dynamo_component_");
  }
}
