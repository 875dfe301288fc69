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
 * llama.cpp's names against a fleet of simulated llama-server pods: the catalogued names pass, the
 * colon turned into {@code _} is told the spelling, and the traps the catalog records are caught
 * (an average typed counter under rate(), gauges that every read resets, a family removed in
 * 2025-05, a label the page never carries, a name that never existed).
 */
class LlamacppLintTest {
  static Reference ref;

  @BeforeAll
  static void fleet() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .llamacppPods(1)
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
      nullValues = "-",
      textBlock =
          """
          # query                                                  | findings (check severity: fix)
          llamacpp:requests_deferred                               | -
          sum(rate(llamacpp:tokens_predicted_total[5m]))           | -
          llamacpp_requests_deferred                               | prefix-spelling ERROR: use llamacpp:requests_deferred
          rate(llamacpp:n_busy_slots_per_decode[5m])               | misleading-gauge WARNING: use sum(rate(llamacpp:n_decode_total[5m]))
          llamacpp:prompt_tokens_seconds                           | misleading-gauge WARNING: use sum(rate(llamacpp:prompt_tokens_total[5m])) / sum(rate(llamacpp:prompt_seconds_total[5m]))
          llamacpp:kv_cache_usage_ratio                            | removed-metric ERROR:
          llamacpp:tokens_per_second                               | unknown-metric ERROR:
          sum by (model_name) (llamacpp:requests_processing)       | label-not-carried WARNING: group by a label the series carry, or add model_name as a target label
          """)
  void llamacppNamesAreKnown(String query, String expected) {
    LintResult r =
        new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.expr("query", query)));
    String got =
        r.findings().stream()
            .map(f -> f.check().id() + " " + f.severity() + ": " + f.fix())
            .collect(Collectors.joining("; "))
            .trim();
    assertThat(got).as("%s", r.findings()).isEqualTo(expected == null ? "" : expected);
  }
}
