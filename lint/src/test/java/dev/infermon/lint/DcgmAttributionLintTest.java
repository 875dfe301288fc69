package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.DcgmAttribution;
import dev.infermon.simulator.FleetConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which attribution labels dcgm-exporter writes depends on how it attributes (kubernetes.go at
 * NVIDIA/dcgm-exporter@d5e5f51): DRA series carry the claim labels and never {@code pod_uid}; only
 * MIG GPUs carry {@code GPU_I_PROFILE}. Against simulated exporters of each kind, grouping by a
 * label the series do not carry is {@code label-not-carried}, and by one they carry is clean.
 */
class DcgmAttributionLintTest {
  private static final Map<String, Reference> REFS =
      Map.of(
          "dra", reference(DcgmAttribution.draClaims()),
          "mig", reference(DcgmAttribution.mig("1g.10gb")),
          "plugin", reference(DcgmAttribution.DEVICE_PLUGIN));

  private static Reference reference(DcgmAttribution attribution) {
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
            .dcgmAttribution(attribution)
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
          # attribution | query                                                 | finding
          dra           | sum by (dra_claim_name) (DCGM_FI_DEV_FB_USED)         | -
          dra           | sum by (pod_uid) (DCGM_FI_DEV_FB_USED)                | label-not-carried
          mig           | sum by (GPU_I_PROFILE, pod) (DCGM_FI_DEV_FB_USED)     | -
          plugin        | sum by (GPU_I_PROFILE, pod) (DCGM_FI_DEV_FB_USED)     | label-not-carried
          plugin        | sum by (dra_claim_name) (DCGM_FI_DEV_FB_USED)         | label-not-carried
          """)
  void groupingByALabelTheAttributionDoesNotWriteIsReported(
      String attribution, String query, String expected) {
    LintResult r =
        new LintRun(REFS.get(attribution), LintOptions.DEFAULT)
            .run(List.of(LintInput.expr("query", query)));
    String got = r.findings().stream().map(f -> f.check().id()).collect(Collectors.joining("; "));
    if (expected == null) {
      assertThat(got).as("%s", r.findings()).isEmpty();
    } else {
      assertThat(got).as("%s", r.findings()).contains(expected);
    }
  }
}
