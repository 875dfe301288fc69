package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fixes of the aggregation checks, which the corpus's golden files do not hold: across engines,
 * ranks or API servers a KV-cache usage (a ratio of one engine's cache) is collapsed with {@code
 * max} (an average of a full engine and an idle one is half full) and a count is added per pod with
 * {@code sum} before any average across pods; ranks that each report the same batch are collapsed
 * with {@code max} before the sum. No fix suggests {@code avg} where a sum or max is meant. Against
 * the lint corpus's fleet (current vLLM with a data-parallel pod, vLLM 0.11, SGLang behind its
 * gateway).
 */
class AggregationFixesTest {
  static Reference ref;

  @BeforeAll
  static void fleet() {
    ref = SimulatedEndpoints.corpusReference();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # query                                             | check: fix
          avg by (pod, model_name) (vllm:kv_cache_usage_perc) | avg-across-engines: max by (pod, model_name) (vllm:kv_cache_usage_perc)
          avg(vllm:num_requests_running)                      | avg-across-engines: sum each pod first: avg (sum by (namespace, pod) (vllm:num_requests_running))
          sum by (pod) (vllm:kv_cache_usage_perc)             | sum-over-duplicates: use max by (pod) instead of sum (an avg would hide a full engine)
          sum by (model_name) (sglang_num_running_reqs)       | sum-over-duplicates: collapse the ranks first: sum by (model_name) (max without (tp_rank, pp_rank, moe_ep_rank, pid) (sglang_num_running_reqs))
          """)
  void aggregationFixesUseMaxOrSumNeverAvg(String query, String expected) {
    LintResult r =
        new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.expr("query", query)));
    String got =
        r.findings().stream()
            .map(f -> f.check().id() + ": " + f.fix())
            .collect(Collectors.joining("; "));
    assertThat(got).as("%s", r.findings()).isEqualTo(expected);
    assertThat(r.findings()).allSatisfy(f -> assertThat(f.fix()).doesNotContainPattern("use avg"));
  }
}
