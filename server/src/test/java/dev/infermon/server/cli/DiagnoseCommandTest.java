package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.diagnosis.Diagnosis;
import dev.infermon.llm.diagnosis.Evidence;
import dev.infermon.llm.diagnosis.Finding;
import dev.infermon.llm.diagnosis.NotMeasured;
import dev.infermon.llm.diagnosis.State;
import dev.infermon.llm.diagnosis.Symptom;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code infermon diagnose}: exit codes and the text form. */
class DiagnoseCommandTest {
  @Test
  void usageAndUnreachableApiGiveExitCodeTwo() {
    assertThat(LintCommandTest.run("diagnose").code()).isEqualTo(2);
    LintCommandTest.Run badWindow =
        LintCommandTest.run("diagnose", "--url", "http://127.0.0.1:9", "--window", "x");
    assertThat(badWindow.code()).isEqualTo(2);
    assertThat(badWindow.err()).as("the bad flag is named").contains("--window: ");
    LintCommandTest.Run r = LintCommandTest.run("diagnose", "--url", "http://127.0.0.1:9");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("infermon diagnose: ");
  }

  @Test
  void textNamesStatePodSummaryAndEvidence() {
    Diagnosis d =
        new Diagnosis(
            0,
            600_000,
            List.of("ns/p (m)"),
            List.of(
                new Finding(
                    State.KV_PRESSURE,
                    "m",
                    "ns",
                    "p",
                    "KV cache at or above 90% in 97% of the window",
                    List.of(
                        new Evidence(
                            "KV cache usage",
                            "max by (pod) (vllm:kv_cache_usage_perc)",
                            "{pod=\"p\"}",
                            0.99,
                            300_000,
                            "max over the window")))));
    assertThat(DiagnoseCommand.text(d))
        .isEqualTo(
            "Diagnosis of 1 pods from 1970-01-01T00:00:00Z to 1970-01-01T00:10:00Z\n"
                + "\nkv-pressure  m  ns/p\n"
                + "  KV cache at or above 90% in 97% of the window\n"
                + "    KV cache usage = 0.9900 at 1970-01-01T00:05:00Z (max over the window)\n"
                + "      max by (pod) (vllm:kv_cache_usage_perc)\n");
    assertThat(DiagnoseCommand.text(new Diagnosis(0, 1000, List.of(), List.of())))
        .endsWith("nothing looks wrong\n");
  }

  @Test
  void textSaysWhichSymptomHasNoCauseAndWhatWasNotMeasured() {
    Diagnosis d =
        new Diagnosis(
            0,
            600_000,
            List.of("ns/p (m)"),
            List.of(
                new Finding(
                    State.CAUSE_NOT_FOUND,
                    "m",
                    "ns",
                    "p",
                    "TTFT p95 is up to 4.1 s on pod ns/p; cause not found: could not read queue"
                        + " time, prefix cache",
                    List.of(
                        new Evidence(
                            "TTFT p95 (s)",
                            "histogram_quantile(0.95, x)",
                            "{pod=\"p\"}",
                            4.1,
                            300_000,
                            "max over the window")),
                    List.of(Symptom.TTFT_HIGH),
                    List.of("queue time", "prefix cache"))),
            List.of(new NotMeasured("m", "ns", "p", List.of("queue time", "GPU memory"))));
    assertThat(DiagnoseCommand.text(d))
        .isEqualTo(
            "Diagnosis of 1 pods from 1970-01-01T00:00:00Z to 1970-01-01T00:10:00Z\n"
                + "\ncause-not-found  m  ns/p\n"
                + "  TTFT p95 is up to 4.1 s on pod ns/p; cause not found: could not read queue"
                + " time, prefix cache\n"
                + "  symptoms: ttft-high\n"
                + "  not read: queue time, prefix cache\n"
                + "    TTFT p95 (s) = 4.100 at 1970-01-01T00:05:00Z (max over the window)\n"
                + "      histogram_quantile(0.95, x)\n"
                + "\nnot measured, so never judged:\n"
                + "  ns/p (m): queue time, GPU memory\n");
    // no finding is not "nothing is wrong" when signals were missing
    assertThat(
            DiagnoseCommand.text(
                new Diagnosis(
                    0,
                    1000,
                    List.of("ns/p (m)"),
                    List.of(),
                    List.of(new NotMeasured("m", "ns", "p", List.of("GPU memory"))))))
        .contains("nothing looks wrong in what could be read; the signals below were not\n")
        .endsWith("  ns/p (m): GPU memory\n");
  }
}
