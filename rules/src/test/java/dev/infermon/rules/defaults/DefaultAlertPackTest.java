package dev.infermon.rules.defaults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.rules.rulefmt.RuleFile;
import dev.infermon.rules.rulefmt.RuleSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The shipped pack is the generated one; thresholds from {@code llm.alerts} change the rules. */
class DefaultAlertPackTest {
  @Test
  void shippedFileIsTheGeneratedDefault() throws IOException {
    try (InputStream in = DefaultAlertPack.class.getResourceAsStream(DefaultAlertPack.RESOURCE)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo(DefaultAlertPack.yaml(LlmConfig.Alerts.DEFAULT));
    }
  }

  @Test
  void defaultPackCoversBothEngines() {
    RuleFile f = DefaultAlertPack.ruleFile(LlmConfig.Alerts.DEFAULT);
    assertThat(f.ruleCount()).isEqualTo(4);
    assertThat(f.groups().get(0).rules())
        .extracting(RuleSpec::exprText)
        .anyMatch(e -> e.contains("vllm:time_to_first_token_seconds_bucket"))
        .anyMatch(e -> e.contains("sglang:time_to_first_token_seconds_bucket"))
        .anyMatch(
            e ->
                e.contains("vllm:num_requests_waiting") && e.contains("vllm:num_preemptions_total"))
        .anyMatch(
            e ->
                e.contains("sglang:num_queue_reqs")
                    && e.contains("sglang:num_retracted_requests_total"));
  }

  @Test
  void thresholdsAreTunable() {
    LlmConfig.Alerts tuned =
        new LlmConfig.Alerts(
            true,
            0.99,
            Duration.ofMillis(1500),
            Duration.ofMinutes(5),
            200,
            Duration.ofMinutes(30));
    RuleFile f = DefaultAlertPack.ruleFile(tuned);
    RuleSpec ttft = f.groups().get(0).rules().get(0);
    assertThat(ttft.exprText()).startsWith("histogram_quantile(0.99,").contains("> 1.5");
    assertThat(ttft.forDuration()).isEqualTo(Duration.ofMinutes(5));
    assertThat(ttft.annotations().get("summary")).startsWith("TTFT p99 ");
    RuleSpec queue = f.groups().get(0).rules().get(2);
    assertThat(queue.exprText()).contains("> 200");
    assertThat(queue.forDuration()).isEqualTo(Duration.ofMinutes(30));
  }

  @Test
  void disabledPackHasNoRules() {
    LlmConfig.Alerts off =
        new LlmConfig.Alerts(
            false, 0.95, Duration.ofSeconds(2), Duration.ofMinutes(10), 50, Duration.ofMinutes(15));
    assertThat(DefaultAlertPack.ruleFile(off)).isNull();
  }
}
