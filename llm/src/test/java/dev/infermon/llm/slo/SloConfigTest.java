package dev.infermon.llm.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.app.LlmConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code llm.slos} section: defaults, and each invalid entry reported at its position. */
class SloConfigTest {
  static String config(String entry) {
    return "llm:\n  slos:\n    - " + entry.replace("; ", "\n      ") + "\n";
  }

  @Test
  void defaultsNameAndWindow() throws Exception {
    LlmConfig.Slo s =
        ConfigLoader.create()
            .parse(config("model: m; sli: success; objective: 0.995"), "c.yml")
            .llm()
            .slos()
            .get(0);
    assertThat(s.name()).isEqualTo("m-success");
    assertThat(s.window()).isEqualTo(Duration.ofDays(30));
    assertThat(s.engine()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "model: m; sli: latency; objective: 0.9 | c.yml:4:12: llm.slos[0].sli: unknown SLI \"latency\"",
        "model: m; sli: ttft; objective: 0.9 | c.yml:3:7: llm.slos[0].threshold: a latency SLO needs a threshold greater than 0s",
        "model: m; sli: ttft; threshold: 2s; objective: 95 | llm.slos[0].objective: must be between 0 and 1",
        "model: m; sli: success; threshold: 1s; objective: 0.9 | a success SLO has no latency threshold",
        "model: m; sli: ttft; threshold: 2s; objective: 0.9; engine: trt | engine must be vllm or sglang",
        "sli: success; objective: 0.9 | an SLO needs the model it is about",
      })
  void invalidEntriesAreReported(String entry, String message) {
    assertThatThrownBy(() -> ConfigLoader.create().parse(config(entry), "c.yml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(message);
  }
}
