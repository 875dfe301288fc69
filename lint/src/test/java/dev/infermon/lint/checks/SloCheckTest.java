package dev.infermon.lint.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.lint.Finding;
import dev.infermon.lint.Location;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.slo.SliSource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An SLO threshold against the engines' bucket bounds (catalog, newest release). */
class SloCheckTest {
  @ParameterizedTest(name = "{0} {1} {2}ms → {3} {4}")
  @CsvSource(
      delimiter = '|',
      value = {
        // sli | engine | threshold ms | severity (none) | message part
        "ttft | vllm   | 2500 | none    | ''",
        "ttft | vllm   | 2000 | error   | nearest bounds: 2.5s, 1s",
        "ttft | ''     | 2500 | warning | SGLang's sglang:time_to_first_token_seconds (nearest bounds: 2s, 4s)",
        "ttft | sglang | 2500 | error   | nearest bounds: 2s, 4s",
        "ttft | ''     | 3000 | error   | vLLM's vllm:time_to_first_token_seconds (nearest bounds: 2.5s, 5s)",
        "tpot | vllm   | 100  | none    | ''",
        "tpot | sglang | 100  | error   | no engine of sglang measures the SLI tpot",
        "itl  | sglang | 100  | none    | ''",
        // vLLM's ITL: inter_token_latency_seconds and, before 0.11 and on NIM,
        // time_per_output_token_seconds; SGLang's: 0.4.5's rename, and the old one before it
        "itl  | vllm   | 100  | none    | ''",
        "itl  | ''     | 4    | warning | vLLM's vllm:time_per_output_token_seconds (nearest bounds: 0.01s); SGLang's sglang:time_per_output_token_seconds (nearest bounds: 0.005s)",
        "itl  | sglang | 4    | error   | SGLang's sglang:time_per_output_token_seconds (nearest bounds: 0.005s)",
        "itl  | vllm   | 4    | error   | vLLM's vllm:inter_token_latency_seconds (nearest bounds: 0.01s); vLLM's vllm:time_per_output_token_seconds",
        "e2e  | vllm   | 60000 | none   | ''",
        "success | '' | 0    | none    | ''",
      })
  void thresholdAgainstBuckets(
      String sli, String engine, long ms, String severity, String message) {
    LlmConfig.Slo slo =
        new LlmConfig.Slo(
            "s", "m", sli, engine, Duration.ofMillis(ms), 0.95, LlmConfig.Slo.DEFAULT_WINDOW);
    List<Finding> f = SloCheck.check(slo, Catalog.builtIn(), Location.at("infermon.yml", 3, 7));
    if (severity.equals("none")) {
      assertThat(f).isEmpty();
      assertThat(SliSource.exact(slo, Catalog.builtIn())).isNotEmpty();
    } else {
      assertThat(f).hasSize(1);
      assertThat(f.get(0).severity().label()).isEqualTo(severity);
      assertThat(f.get(0).message()).contains(message);
      assertThat(f.get(0).location().line()).isEqualTo(3);
    }
  }

  /**
   * A threshold that is a bound of the newest release but not of an older one the catalog records
   * (vLLM 0.4-0.7 stop time to first token at 10 s and time per output token at 2.5 s): a warning
   * naming those releases and the bound the rules read there instead.
   */
  @ParameterizedTest(name = "{0} {1}ms")
  @CsvSource(
      delimiter = '|',
      value = {
        "ttft | 20000 | vLLM 0.4–0.7's vllm:time_to_first_token_seconds (read at 10s there)",
        "itl  | 5000  | vLLM 0.4–0.7's vllm:time_per_output_token_seconds (read at 2.5s there)",
      })
  void aBoundMissingInAnOlderRelease(String sli, long ms, String message) {
    LlmConfig.Slo slo =
        new LlmConfig.Slo(
            "s", "m", sli, "vllm", Duration.ofMillis(ms), 0.95, LlmConfig.Slo.DEFAULT_WINDOW);
    List<Finding> f = SloCheck.check(slo, Catalog.builtIn(), Location.at("infermon.yml", 3, 7));
    assertThat(f).hasSize(1);
    assertThat(f.get(0).check()).isEqualTo(dev.infermon.lint.CheckId.BOUND_MISSING_IN_RELEASE);
    assertThat(f.get(0).severity().label()).isEqualTo("warning");
    assertThat(f.get(0).message()).contains(message).doesNotContain("0.8");
  }

  /**
   * With endpoints, a release is named only when a target may run it: a 20 s TTFT SLO against
   * current vLLM pods gets nothing, against a fleet with a vLLM 0.4.3 pod the warning.
   */
  @ParameterizedTest(name = "older pods: {0}")
  @CsvSource({"false", "true"})
  void withEndpointsOnlyTheReleasesTheTargetsRun(boolean older) {
    dev.infermon.simulator.FleetConfig fleet =
        dev.infermon.simulator.FleetConfig.builder()
            .vllmPods(1)
            .legacyVllmPods(older ? 1 : 0)
            .legacyRelease(dev.infermon.simulator.vllm.VllmRelease.V0_4_3)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .build();
    Reference ref =
        Reference.of(
            Catalog.builtIn(),
            dev.infermon.lint.SimulatedEndpoints.inventory(fleet, Duration.ofMinutes(5)),
            Reference.Mode.LIVE);
    LlmConfig.Slo slo =
        new LlmConfig.Slo(
            "s", "m", "ttft", "vllm", Duration.ofSeconds(20), 0.95, LlmConfig.Slo.DEFAULT_WINDOW);
    List<Finding> f = SloCheck.check(slo, ref, Location.at("infermon.yml", 3, 7));
    if (!older) {
      assertThat(f).isEmpty();
      return;
    }
    assertThat(f).hasSize(1);
    assertThat(f.get(0).message()).contains("vLLM 0.4–0.7's vllm:time_to_first_token_seconds");
  }
}
