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
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * vLLM production-stack's router in front of current vLLM pods ({@code --router production-stack}):
 * a name both the engine and the router export is judged as the engine's (docs/lint.md, "Not an
 * engine metric"), by the engine's targets only. The router's {@code vllm:num_requests_swapped} (0
 * per backend) does not make V0's removed gauge a deprecated name still served: no engine target
 * has it, so it is removed, and the finding says the router has one. The router's own psutil gauges
 * and prometheus_client's default collectors on its page are no engine's names and draw no finding.
 * A selector that requires the router's {@code server} label reads the router's gauge, not the
 * engine's, and is not judged, as no router name is (the exported router level's in-flight query).
 * Live and stored references alike.
 */
class ProductionStackLintTest {
  static Map<String, Reference> refs;

  @BeforeAll
  static void fleet() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .router(RouterKind.PRODUCTION_STACK)
            .build();
    refs =
        Map.of(
            "live",
            Reference.of(
                Catalog.builtIn(),
                SimulatedEndpoints.inventory(config, Duration.ofMinutes(5)),
                Reference.Mode.LIVE),
            "stored",
            SimulatedEndpoints.storedReference(config, Duration.ofMinutes(5)));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # reference | query                                        | findings (check severity: message start), then what the message also says
          live   | sum by (server) (vllm:num_requests_swapped)         | removed-metric ERROR: vllm:num_requests_swapped is hidden since vLLM 0.9 | exports a gauge of the same name
          stored | sum by (server) (vllm:num_requests_swapped)         | removed-metric ERROR: vllm:num_requests_swapped is hidden since vLLM 0.9 | exports a gauge of the same name
          live   | sum(vllm:num_requests_running)                      | -                                                                        | -
          stored | sum(vllm:num_requests_running)                      | -                                                                        | -
          live   | sum by (server) (vllm:current_qps)                  | -                                                                        | -
          live   | max(router_cpu_usage_percent)                       | -                                                                        | -
          stored | max(router_memory_usage_percent)                    | -                                                                        | -
          live   | rate(process_cpu_seconds_total[5m])                 | -                                                                        | -
          stored | process_resident_memory_bytes                       | -                                                                        | -
          live   | sum by (generation) (rate(python_gc_collections_total[5m])) | -                                                                | -
          stored | python_info                                         | -                                                                        | -
          live   | sum by (server) (vllm:num_requests_running{server!=""}) | -                                                                    | -
          stored | sum by (server) (vllm:num_requests_running{server!=""}) | -                                                                    | -
          live   | max(vllm:num_requests_swapped{server=~"http://.+"})  | -                                                                        | -
          """)
  void aNameBothExportIsJudgedByTheEnginesTargets(
      String reference, String query, String start, String also) {
    String got = findings(refs.get(reference), query);
    if (start == null) {
      assertThat(got).isEmpty();
    } else {
      assertThat(got).startsWith(start).contains(also).doesNotContain("deprecated-metric");
    }
  }

  private static String findings(Reference ref, String query) {
    LintResult r =
        new LintRun(ref, LintOptions.DEFAULT).run(List.of(LintInput.expr("query", query)));
    return r.findings().stream()
        .map(f -> f.check().id() + " " + f.severity() + ": " + f.message())
        .collect(Collectors.joining("; "))
        .trim();
  }
}
