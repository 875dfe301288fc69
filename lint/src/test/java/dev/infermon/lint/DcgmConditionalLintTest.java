package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.simulator.testing.Captures;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * dcgm fields the catalog knows under a hardware or counters-CSV condition, against the real
 * exporters of the captures: absent from an endpoint, such a field is a conditional finding (info
 * for hardware the GPU lacks, a warning for a CSV line to add), never an unknown-metric error and
 * never a did-you-mean to another field. {@code DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL} is in the
 * default counters CSV: the PCIe RTX 4000 Ada exports it at 0, the PCIe L40S not at all (DCGM
 * answers blank without NVLink and the exporter skips blank values, dcgm-ack.md §1.3).
 */
class DcgmConditionalLintTest {
  private static final Map<String, Reference> REFS =
      Map.of(
          "l40s", reference("upcloud-l40s-single-gpu-no-pod.prom"),
          "rtx4000", reference("lke-rtx4000ada-pod-attributed-xid.prom"));

  private static Reference reference(String capture) {
    return SimulatedEndpoints.captureReference(List.of(Captures.get(capture)));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # capture | query                                                      | finding                        | words
          l40s      | sum by (gpu) (rate(DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL[5m])) | conditional-metric-off info    | GPUs with NVLink
          rtx4000   | sum by (gpu) (rate(DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL[5m])) | -                              | -
          l40s      | sum by (gpu) (rate(DCGM_FI_DEV_NVLINK_BANDWIDTH_L0[5m]))    | conditional-metric-off warning | counters CSV
          l40s      | sum by (gpu) (rate(DCGM_EXP_XID_ERRORS_COUNT[5m]))          | conditional-metric-off warning | counters CSV
          l40s      | avg by (gpu) (DCGM_FI_DEV_GPU_TEMP)                         | -                              | -
          """)
  void aConditionalFieldAbsentFromTheExporterIsConditionalNotUnknown(
      String capture, String query, String expected, String words) {
    LintResult r =
        new LintRun(REFS.get(capture), LintOptions.DEFAULT)
            .run(List.of(LintInput.expr("query", query)));
    String got =
        r.findings().stream()
            .map(f -> f.check().id() + " " + f.severity().label())
            .collect(Collectors.joining("; "));
    if (expected == null) {
      assertThat(got).as("%s", r.findings()).isEmpty();
      return;
    }
    assertThat(got).as("%s", r.findings()).isEqualTo(expected);
    Finding f = r.findings().get(0);
    assertThat(f.message()).as("the message").contains(words);
    assertThat(f.fix()).as("no other field is offered").doesNotContain("did you mean");
  }
}
