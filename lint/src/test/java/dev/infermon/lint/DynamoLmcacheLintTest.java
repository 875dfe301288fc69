package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NVIDIA Dynamo's and LMCache's names against the catalog alone (no fleet): the catalogued names
 * pass, a name neither ever had is unknown, and LMCache's interval hit-rate gauge is told the
 * counter ratio to use.
 */
class DynamoLmcacheLintTest {
  static final Reference REF = Reference.catalogOnly(Catalog.builtIn());

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # query                                                                                  | first finding (check severity)
          histogram_quantile(0.9, sum by (le) (rate(dynamo_frontend_time_to_first_token_seconds_bucket[5m]))) | -
          sum by (status) (rate(dynamo_frontend_requests_total[5m]))                               | -
          sum(dynamo_component_inflight_requests)                                                  | -
          dynamo_frontend_ttft_seconds                                                             | unknown-metric ERROR
          sum(max without (worker_id, role) (rate(lmcache:num_hit_tokens_total[5m]))) / sum(max without (worker_id, role) (rate(lmcache:num_requested_tokens_total[5m]))) | -
          sum(rate(lmcache:num_hit_tokens_total[5m])) / sum(rate(lmcache:num_requested_tokens_total[5m])) | sum-over-duplicates WARNING
          lmcache:hit_tokens_total                                                                 | unknown-metric ERROR
          avg(lmcache:retrieve_hit_rate)                                                           | misleading-gauge WARNING
          """)
  void namesAreKnown(String query, String expected) {
    LintResult r =
        new LintRun(REF, LintOptions.DEFAULT).run(List.of(LintInput.expr("query", query)));
    String got =
        r.findings().stream()
            .map(f -> f.check().id() + " " + f.severity())
            .collect(Collectors.joining("; "))
            .trim();
    if (expected == null) {
      assertThat(got).as("%s", r.findings()).isEmpty();
    } else {
      assertThat(got).as("%s", r.findings()).startsWith(expected);
    }
  }
}
