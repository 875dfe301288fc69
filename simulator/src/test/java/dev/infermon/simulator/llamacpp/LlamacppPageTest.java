package dev.infermon.simulator.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.LlamacppPod;
import dev.infermon.simulator.Refusal;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulated llama-server page has the handler's layout (tools/server/server-context.cpp after
 * #16818): HELP, TYPE and one unlabelled sample per family, counters first, the handler's help
 * texts, {@code n_tokens_max} and {@code n_busy_slots_per_decode} typed counter; its values follow
 * the server's counters, and the throughput gauges average only what happened since the previous
 * read.
 */
class LlamacppPageTest {
  private static final List<String> ORDER =
      List.of(
          "prompt_tokens_total counter Number of prompt tokens processed.",
          "prompt_seconds_total counter Prompt process time",
          "tokens_predicted_total counter Number of generation tokens processed.",
          "tokens_predicted_seconds_total counter Predict process time",
          "n_decode_total counter Total number of llama_decode() calls",
          "n_tokens_max counter Largest observed n_tokens.",
          "n_busy_slots_per_decode counter Average number of busy slots per llama_decode() call",
          "prompt_tokens_seconds gauge Average prompt throughput in tokens/s.",
          "predicted_tokens_seconds gauge Average generation throughput in tokens/s.",
          "requests_processing gauge Number of requests processing.",
          "requests_deferred gauge Number of requests deferred.");

  private static Fleet fleet;
  private static LlamacppPod pod;

  @BeforeAll
  static void run() {
    fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .llamacppPods(1)
                .build(),
            1_780_000_000_000L);
    fleet.advance(Duration.ofMinutes(4));
    for (InferencePod p : fleet.pods()) {
      pod = (LlamacppPod) p;
    }
  }

  private static String page() {
    return fleet.render(pod.info().name()).orElseThrow();
  }

  @Test
  void layoutIsTheHandlers() {
    String[] lines = page().split("\n", -1);
    assertThat(lines).hasSize(ORDER.size() * 3 + 1);
    assertThat(lines[lines.length - 1]).isEmpty(); // ends with a newline
    for (int i = 0; i < ORDER.size(); i++) {
      String[] want = ORDER.get(i).split(" ", 3);
      String name = "llamacpp:" + want[0];
      assertThat(lines[3 * i]).isEqualTo("# HELP " + name + " " + want[2]);
      assertThat(lines[3 * i + 1]).isEqualTo("# TYPE " + name + " " + want[1]);
      assertThat(lines[3 * i + 2]).matches(Pattern.quote(name) + " [-0-9.e+]+");
    }
  }

  @Test
  void countersAreTheServers() {
    String p = page();
    LlamacppMetrics m = pod.metrics();
    assertThat(m.promptTokens()).isPositive();
    assertThat(m.predictedTokens()).isPositive();
    assertThat(value(p, "prompt_tokens_total")).isEqualTo(m.promptTokens());
    assertThat(value(p, "tokens_predicted_total")).isEqualTo(m.predictedTokens());
    assertThat(value(p, "n_decode_total")).isEqualTo(m.decodes());
    assertThat(value(p, "requests_processing")).isEqualTo(m.processing());
    assertThat(value(p, "requests_deferred")).isEqualTo(m.deferred());
    // a slot's prompt time is whole milliseconds: three decimals at most
    assertThat(raw(p, "prompt_seconds_total")).matches("[0-9]+(\\.[0-9]{1,3})?");
    double busy = value(p, "n_busy_slots_per_decode");
    assertThat(busy).isBetween(1.0, (double) LlamacppPod.SLOTS);
  }

  @Test
  void aReadEmptiesTheThroughputBucket() {
    fleet.advance(Duration.ofSeconds(30));
    String first = page();
    assertThat(value(first, "predicted_tokens_seconds")).isPositive();
    String again = page(); // no time passed: nothing finished since the read before
    assertThat(value(again, "predicted_tokens_seconds")).isZero();
    assertThat(value(again, "prompt_tokens_seconds")).isZero();
    assertThat(value(again, "tokens_predicted_total"))
        .isEqualTo(value(first, "tokens_predicted_total"));
  }

  @Test
  void withoutTheMetricsFlagTheEndpointAnswers501() {
    Fleet off =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .llamacppPods(2)
                .llamacppWithoutMetrics(1)
                .build(),
            1_780_000_000_000L);
    off.advance(Duration.ofMinutes(1));
    List<InferencePod> pods = off.pods();
    assertThat(((LlamacppPod) pods.get(0)).metricsFlag()).isTrue();
    assertThat(off.render(pods.get(0).info().name())).isPresent();
    assertThat(off.refusal(pods.get(0).info().name())).isEmpty();
    String name = pods.get(1).info().name();
    assertThat(off.render(name)).isEmpty();
    Refusal r = off.refusal(name).orElseThrow();
    assertThat(r.status()).isEqualTo(501);
    assertThat(r.body())
        .isEqualTo(
            "{\"error\":{\"code\":501,\"message\":\"This server does not support metrics"
                + " endpoint. Start it with `--metrics`\",\"type\":\"not_supported_error\"}}");
  }

  private static double value(String page, String name) {
    return Double.parseDouble(raw(page, name));
  }

  private static String raw(String page, String name) {
    Matcher m = Pattern.compile("(?m)^llamacpp:" + Pattern.quote(name) + " (\\S+)$").matcher(page);
    assertThat(m.find()).as(name).isTrue();
    return m.group(1);
  }
}
