package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.EngineDetector;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.simulator.FleetConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every name of an engine checked with the spelling of that engine's targets: against a fleet of
 * current vLLM pods ({@code vllm:}) and SGLang pods behind the gateway only ({@code sglang_}), a
 * name in a spelling no target of its engine uses is {@code prefix-spelling} with the targets'
 * spelling as the fix, whether or not the family exists yet (SGLang creates some on first use); the
 * same family or-ed in both spellings is one quantity and is judged by the branch in the targets'
 * spelling.
 */
class SpellingLintTest {
  static Reference ref;

  @BeforeAll
  static void fleet() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(1)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(1)
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
      nullValues = "-",
      textBlock =
          """
          # query                                                              | findings (check severity: fix)
          sglang_num_running_reqs                                              | -
          sglang:num_running_reqs                                              | prefix-spelling ERROR: use sglang_num_running_reqs
          rate(sglang:num_retracted_requests_total[5m])                        | prefix-spelling ERROR: use sglang_num_retracted_requests_total
          rate(sglang_num_retracted_requests_total[5m])                        | unknown-metric INFO:
          sglang:num_running_reqs or sglang_num_running_reqs                   | -
          rate(sglang:num_retracted_requests_total[5m]) or rate(sglang_num_retracted_requests_total[5m]) | unknown-metric INFO:
          vllm:num_requests_running                                            | -
          vllm_num_requests_running                                            | prefix-spelling ERROR: use vllm:num_requests_running
          rate(vllm_request_success_total[5m])                                 | prefix-spelling ERROR: use vllm:request_success_total
          num_requests_running                                                 | prefix-spelling ERROR: use vllm:num_requests_running
          ray_vllm:num_requests_running                                        | prefix-spelling ERROR: use vllm:num_requests_running
          ray_vllm:num_requests_running or vllm:num_requests_running           | -
          """)
  void namesAreCheckedWithTheTargetsSpelling(String query, String expected) {
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
   * An endpoint whose names are vLLM's with the colon turned into {@code _}: the inventory calls it
   * a lookalike, and a query of its names is told the spelling to relabel to.
   */
  @Test
  void lookalikeEndpointIsReportedWithTheSpellingToUse() {
    Map<String, FamilyInfo> families = new LinkedHashMap<>();
    for (String f :
        List.of(
            "vllm_num_requests_running", "vllm_num_requests_waiting", "vllm_kv_cache_usage_perc")) {
      families.put(f, new FamilyInfo(f, MetricType.GAUGE, Set.of("model_name"), List.of()));
    }
    Detection d = new EngineDetector(Catalog.builtIn()).detect(families.keySet());
    Inventory inv =
        new Inventory(
            List.of(new TargetInventory(Map.of("instance", "pod-a:8000"), true, d, families)));
    Reference lookalike = Reference.of(Catalog.builtIn(), inv, Reference.Mode.LIVE);
    LintResult r =
        new LintRun(lookalike, LintOptions.DEFAULT)
            .run(List.of(LintInput.expr("query", "sum(vllm_num_requests_running)")));
    assertThat(r.findings()).hasSize(1);
    Finding f = r.findings().get(0);
    assertThat(f.check()).isEqualTo(CheckId.PREFIX_SPELLING);
    assertThat(f.severity()).isEqualTo(Severity.WARNING);
    assertThat(f.message())
        .contains("pod-a:8000")
        .contains("look like vLLM's with the prefix vllm_");
    assertThat(f.fix())
        .isEqualTo("relabel the endpoints' names to vllm: and use vllm:num_requests_running");
  }
}
