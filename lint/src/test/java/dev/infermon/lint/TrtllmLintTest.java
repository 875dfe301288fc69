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
 * TensorRT-LLM's names against a simulated trtllm-serve pod (scraped at /prometheus/metrics): the
 * catalogued names pass, and the traps the catalog records are caught (the lifetime hit-rate gauge,
 * a name that never existed).
 */
class TrtllmLintTest {
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
            .trtllmPods(1)
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
          trtllm_num_requests_running                              | -
          sum(rate(trtllm_generation_tokens_total[5m]))            | -
          trtllm_kv_cache_hit_rate                                 | misleading-gauge WARNING: use sum(rate(trtllm_kv_cache_reused_blocks_total[5m])) / (sum(rate(trtllm_kv_cache_reused_blocks_total[5m])) + sum(rate(trtllm_kv_cache_missed_blocks_total[5m])))
          trtllm_tokens_per_second                                 | unknown-metric ERROR:
          """)
  void trtllmNamesAreKnown(String query, String expected) {
    LintResult r =
        new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.expr("query", query)));
    String got =
        r.findings().stream()
            .map(f -> f.check().id() + " " + f.severity() + ": " + f.fix())
            .collect(Collectors.joining("; "))
            .trim();
    assertThat(got).as("%s", r.findings()).isEqualTo(expected == null ? "" : expected);
  }

  /**
   * TensorRT-LLM 1.0's unprefixed names are NVIDIA NIM's vLLM names too; a selector that requires
   * its {@code engine_type} reads TensorRT-LLM's spelling (infermon's own exports select it so),
   * and is judged as TensorRT-LLM's: against the catalog, its TTFT carries engine_type, its TPOT
   * and queue time are no removed or NIM-less vLLM family. Without the label the names stay vLLM's.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # query                                                                 | findings
          sum by (le) (rate(time_to_first_token_seconds_bucket{engine_type!=""}[5m]))   | -
          sum by (le) (rate(time_per_output_token_seconds_bucket{engine_type!=""}[5m])) | -
          sum(rate(request_queue_time_seconds_sum{engine_type!=""}[5m])) / sum(rate(request_queue_time_seconds_count{engine_type!=""}[5m])) | -
          sum(rate(request_success_total{engine_type!="", finished_reason="stop"}[5m])) | -
          sum by (le) (rate(time_to_first_token_seconds_bucket{engine_type="trtllm"}[5m])) | -
          sum by (le) (rate(time_to_first_token_seconds_bucket{engine_type=""}[5m]))    | -
          sum by (le) (rate(time_per_output_token_seconds_bucket[5m]))               | removed-metric WARNING: use inter_token_latency_seconds_bucket
          """)
  void engineTypeSelectsTensorRtLlm10AgainstTheCatalog(String query, String expected) {
    LintResult r =
        new LintRun(Reference.catalogOnly(Catalog.builtIn()), LintOptions.DEFAULT)
            .run(List.of(LintInput.expr("query", query)));
    String got =
        r.findings().stream()
            .map(f -> f.check().id() + " " + f.severity() + ": " + f.fix())
            .collect(Collectors.joining("; "))
            .trim();
    assertThat(got).as("%s", r.findings()).isEqualTo(expected == null ? "" : expected);
  }
}
