package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.RouterKind;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SGLang's model gateway in front of simulated SGLang pods and, with its PD router, the SGLang
 * prefill/decode pair ({@code --router smg}): its current {@code smg_*} names, the PD ones too, are
 * a router's, not unknown engine metrics; the first generation's {@code sgl_router_*} is named as
 * gone since sglang #15160.
 */
class SmgLintTest {
  static Reference ref;

  @BeforeAll
  static void fleet() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(0)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(true)
            .router(RouterKind.SMG)
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
          # query                                                                        | findings (check severity: message start)
          sum by (worker) (smg_worker_requests_active)                                   | -
          histogram_quantile(0.95, sum by (le, model) (rate(smg_router_request_duration_seconds_bucket[5m]))) | -
          sum(rate(smg_router_requests_total[5m]))                                       | -
          histogram_quantile(0.95, sum by (le, model) (rate(smg_pd_ttft_seconds_bucket{backend_type="pd"}[5m]))) | -
          histogram_quantile(0.95, sum by (le, model) (rate(smg_pd_prefill_duration_seconds_bucket[5m]))) | -
          sum by (worker_type, policy) (rate(smg_worker_selection_total[5m]))            | -
          sum(rate(sgl_router_requests_total[5m]))                                       | removed-metric WARNING: sgl_router_requests_total is not an engine metric: it is the SGLang Model Gateway (smg, formerly sgl-router)'s, from 2025-05-24 (sglang #6537) until 2025-12-15 (sglang #15160
          """)
  void theGatewaysNamesAreARoutersAndItsFirstGenerationIsGone(String query, String expected) {
    String got = findings(query);
    if (expected == null) {
      assertThat(got).isEmpty();
    } else {
      assertThat(got).startsWith(expected);
    }
  }

  private static String findings(String query) {
    LintResult r =
        new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.expr("query", query)));
    return r.findings().stream()
        .map(f -> f.check().id() + " " + f.severity() + ": " + f.message())
        .collect(Collectors.joining("; "))
        .trim();
  }
}
