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
 * SGLang's prefix-cache hit rate against a simulated SGLang server (≈0.5.9): the batch-local {@code
 * cache_hit_rate} gauge (the last prefill batch's rate, 0 at every decode log) is told the
 * token-counter ratio the page has, and the counter ratios pass.
 */
class SglangLintTest {
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

  /** Against the simulated page (≈0.5.9: realtime_tokens_total, no prefill_effective_tokens). */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = "=>",
      nullValues = "-",
      textBlock =
          """
          # query => findings (check severity: fix)
          sglang:cache_hit_rate => misleading-gauge WARNING: use sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:realtime_tokens_total{mode="prefill_cache"}[5m]))) / sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:realtime_tokens_total{mode=~"prefill_compute|prefill_cache"}[5m])))
          avg by (model_name) (sglang:cache_hit_rate) => misleading-gauge WARNING: use sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:realtime_tokens_total{mode="prefill_cache"}[5m]))) / sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:realtime_tokens_total{mode=~"prefill_compute|prefill_cache"}[5m])))
          sum(rate(sglang:cached_tokens_total[5m])) / sum(rate(sglang:prompt_tokens_total[5m])) => -
          sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:realtime_tokens_total{mode="prefill_cache"}[5m]))) / sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:realtime_tokens_total{mode=~"prefill_compute|prefill_cache"}[5m]))) => -
          sglang:gen_throughput => misleading-gauge WARNING: use sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:realtime_tokens_total{mode="decode"}[5m])))
          """)
  void onTheEndpointsTheHitRateComesFromTheirTokenCounters(String query, String expected) {
    assertThat(findings(ref, query)).isEqualTo(expected == null ? "" : expected);
  }

  /** Without targets: the newest release's counters (main: prefill_effective_tokens_total). */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = "=>",
      nullValues = "-",
      textBlock =
          """
          # query => findings (check severity: fix)
          sglang:cache_hit_rate => misleading-gauge WARNING: use sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:prefill_effective_tokens_total{mode=~"device_hit|host_hit|storage_hit"}[5m]))) / sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:prefill_effective_tokens_total[5m])))
          sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:prefill_effective_tokens_total{mode=~"device_hit|host_hit|storage_hit"}[5m]))) / sum(max without (tp_rank, pp_rank, moe_ep_rank) (rate(sglang:prefill_effective_tokens_total[5m]))) => -
          """)
  void inTheCatalogTheHitRateComesFromTheNewestCounters(String query, String expected) {
    assertThat(findings(Reference.catalogOnly(Catalog.builtIn()), query))
        .isEqualTo(expected == null ? "" : expected);
  }

  private static String findings(Reference reference, String query) {
    LintResult r =
        new LintRun(reference, LintOptions.DEFAULT).run(List.of(LintInput.expr("query", query)));
    return r.findings().stream()
        .map(f -> f.check().id() + " " + f.severity() + ": " + f.fix())
        .collect(Collectors.joining("; "))
        .trim();
  }

  /**
   * A family of a later release than the page's: an optional feature of that release (MFU counters
   * from 0.5.10 behind --enable-mfu-metrics) is a warning naming the release and the flag, the way
   * a flag that is off is; a family that every 0.5.10 page has is added-later, a warning with the
   * upgrade (the query is right for 0.5.10 pages).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # query                                          | findings (check severity: message start)
          rate(sglang:estimated_flops_per_gpu_total[5m])   | conditional-metric-off WARNING: sglang:estimated_flops_per_gpu_total exists only from SGLang 0.5.10 with --enable-mfu-metrics
          sglang:full_token_usage                          | added-later WARNING: sglang:full_token_usage was added in SGLang 0.5.10
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
