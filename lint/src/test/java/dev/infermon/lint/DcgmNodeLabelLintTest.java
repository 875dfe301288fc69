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
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * dcgm-exporter's node label is {@code Hostname} in every release through 4.5.3-4.8.2 and {@code
 * hostname} on main (NVIDIA/dcgm-exporter#655, d5e5f51): against simulated exporters of each
 * spelling, a grouping on the spelling the targets do not carry is {@code label-not-carried} with
 * the carried spelling as the fix, and the carried one is clean.
 */
class DcgmNodeLabelLintTest {
  private static final Map<String, Reference> REFS =
      Map.of(
          "Hostname", reference("Hostname"),
          "hostname", reference("hostname"));

  private static Reference reference(String nodeLabel) {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(1)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .nodes(1)
            .gpusPerNode(2)
            .dcgmNodeLabel(nodeLabel)
            .build();
    return Reference.of(
        Catalog.builtIn(),
        SimulatedEndpoints.inventory(config, Duration.ofMinutes(2)),
        Reference.Mode.LIVE);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # exporter's label | query                                         | findings (check: fix starts with)
          Hostname           | avg by (Hostname) (DCGM_FI_DEV_GPU_UTIL)      | -
          Hostname           | avg by (hostname) (DCGM_FI_DEV_GPU_UTIL)      | label-not-carried: use Hostname, the spelling these series carry
          hostname           | avg by (hostname) (DCGM_FI_DEV_GPU_UTIL)      | -
          hostname           | avg by (Hostname) (DCGM_FI_DEV_GPU_UTIL)      | label-not-carried: use hostname, the spelling these series carry
          hostname           | sum by (Hostname, gpu) (DCGM_FI_DEV_FB_USED)  | label-not-carried: use hostname, the spelling these series carry
          """)
  void groupingOnTheOtherSpellingIsReported(String nodeLabel, String query, String expected) {
    LintResult r =
        new LintRun(REFS.get(nodeLabel), LintOptions.DEFAULT)
            .run(List.of(LintInput.expr("query", query)));
    String got =
        r.findings().stream()
            .map(f -> f.check().id() + ": " + f.fix())
            .collect(Collectors.joining("; "));
    if (expected == null) {
      assertThat(got).as("%s", r.findings()).isEmpty();
    } else {
      assertThat(got).as("%s", r.findings()).startsWith(expected);
    }
  }
}
