package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.FleetConfig;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A family of a release later than the endpoints' (simulated SGLang 0.5.9): an optional feature of
 * that release (MFU counters from 0.5.10 behind {@code --enable-mfu-metrics}) is a warning naming
 * the release and the flag, the way a flag that is off is; a family that every 0.5.10 page has
 * stays an error.
 */
class LaterReleaseLintTest {
  static Reference ref;

  @BeforeAll
  static void fleet() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(0)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .build();
    ref =
        Reference.of(
            Catalog.builtIn(),
            SimulatedEndpoints.inventory(config, Duration.ofMinutes(5)),
            Reference.Mode.LIVE);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # query                                          | findings (check severity: message start)
          rate(sglang:estimated_flops_per_gpu_total[5m])   | conditional-metric-off WARNING: sglang:estimated_flops_per_gpu_total exists only from SGLang 0.5.10 with --enable-mfu-metrics
          sglang:full_token_usage                          | unknown-metric ERROR: sglang:full_token_usage was added in SGLang 0.5.10
          """)
  void laterReleaseFindings(String query, String expected) {
    LintResult r =
        new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.expr("query", query)));
    String got =
        r.findings().stream()
            .map(f -> f.check().id() + " " + f.severity() + ": " + f.message())
            .collect(Collectors.joining("; "));
    assertThat(got).as("%s", r.findings()).startsWith(expected);
  }
}
