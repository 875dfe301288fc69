package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.testing.Captures;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Diagnosis on every simulator scenario and every replayed real capture, as a user meets it when an
 * alert fires. Scenarios: a small fleet serving one model (three vLLM pods, one SGLang pod, a vLLM
 * and an SGLang prefill/decode pair, dcgm-exporter) runs 5 minutes healthy, switches to the
 * scenario and runs 20 more, long enough for every alert's {@code for}. Captures: each replayed
 * alone for 25 minutes ({@link ReplayedCaptures}). The default alert pack is evaluated every minute
 * by the rules module over what is stored ({@link PackAlerts}), and at the end {@link
 * DiagnosisService} diagnoses its default window (the last 30 minutes) through the embedded query
 * backend. Each row says which alerts fire and which states the diagnosis must name (for a capture,
 * also what it cannot read); for every alert that fires there must be a finding on its model that
 * explains its symptom, with evidence, or says plainly that the symptom is there and what could not
 * be read.
 */
class DiagnosisScenariosTest {
  static FleetConfig fleet() {
    return FleetConfig.builder()
        .vllmPods(3)
        .dataParallelPods(0)
        .legacyVllmPods(0)
        .sglangPods(1)
        .sglangGatewayPods(0)
        .prefillDecode(true)
        .models(List.of(ModelProfile.LLAMA_8B.name()))
        .build();
  }

  /** What one scenario's run gives: the alerts firing at its end and the diagnosis then. */
  record Run(Set<PackAlerts.Firing> firing, Diagnosis diagnosis) {}

  static Run run(Scenario scenario) {
    ScrapedFleet f = new ScrapedFleet(fleet());
    PackAlerts pack = new PackAlerts(f.storage);
    // every minute of the fleet's clock, as the rule manager's default interval
    f.run(Duration.ofMinutes(5), t -> evalEveryMinute(pack, t));
    f.fleet.setScenario(scenario);
    f.run(Duration.ofMinutes(20), t -> evalEveryMinute(pack, t));
    Diagnosis d =
        new DiagnosisService(f.backend, Catalog.builtIn())
            .diagnose(
                new DiagnosisRequest(
                    OptionalLong.empty(),
                    OptionalLong.of(f.now()),
                    OptionalLong.empty(),
                    OptionalLong.empty()));
    return new Run(pack.firing(), d);
  }

  private static void evalEveryMinute(PackAlerts pack, long t) {
    if ((t - ScrapedFleet.START) % 60_000 == 0) {
      pack.eval(t);
    }
  }

  static Set<String> words(String s) {
    return s == null ? Set.of() : new TreeSet<>(Arrays.asList(s.trim().split("\\s+")));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # scenario          | alerts firing at the end                                  | states named (at least)
          healthy             |                                                           |
          saturated           | LLMTimeToFirstTokenHigh LLMRequestsQueuedWhilePreempting  | saturated kv-pressure pd-bottleneck
          kv-pressure         | LLMTimeToFirstTokenHigh LLMRequestsQueuedWhilePreempting  | kv-pressure
          deferred-by-config  | LLMTimeToFirstTokenHigh                                   | deferred-by-config
          idle-gpu-long-queue | LLMTimeToFirstTokenHigh                                   | idle-gpu-long-queue
          long-prompts        | LLMTimeToFirstTokenHigh                                   | prefill-bound
          slow-pod            |                                                           | slow-pod
          error-spike         | LLMRequestFailuresHigh                                    | errors-rising
          pod-restart         |                                                           | restarted
          """)
  void everyFiringAlertHasAFinding(String scenario, String alerts, String states) {
    Diagnosis d = check(scenario, run(Scenario.fromCliName(scenario)), alerts, states);
    assertThat(d.pods()).isNotEmpty();
  }

  /**
   * No capture is a fleet in trouble, but the busiest, vLLM 2026-09's ten requests, has one in the
   * 1 to 2.5 s bucket: a TTFT p95 of 1.75 s, above the default 1 s, so it fires the TTFT alert and
   * is prefill-bound (0.12 s of its 0.15 s mean TTFT); none of the others fires an alert or shows a
   * state. What each shows is which signals its engine and release leave unread, per pod ({@code
   * model: signals; ...}); NVIDIA NIM's unprefixed names are read as vLLM's, without the families
   * NIM does not expose; its success ratio is read from NIM's own {@code request_success_total} and
   * {@code request_failure_total}. TGI has no TTFT, inter-token gaps (its per-request mean time per
   * token is TPOT), KV usage or finish reasons. {@link #everyCaptureHasARow} keeps the table to
   * SOURCES.md's captures.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # capture                                                          | alerts | states | not measured, per model
          vllm-0.4.3.txt                                                     |        |        | facebook/opt-125m: waiting by reason, queue time, prefill time, prefix cache, success ratio, GPU activity, GPU memory
          vllm-0.11.x-idle.txt                                               |        |        | Qwen/Qwen1.5-0.5B-Chat: waiting by reason, TTFT, inter-token latency, queue time, prefill time, prompt length, prefix cache, success ratio, GPU activity, GPU memory
          vllm-v0-ray2.32-serve_rayprefix.txt                                |        |        | neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8: waiting by reason, preemptions, queue time, prefill time, prefix cache, success ratio, GPU activity, GPU memory; facebook/opt-125m: requests running, requests waiting, waiting by reason, KV cache usage, TTFT, inter-token latency, queue time, prefill time, prompt length, prefix cache, success ratio, finish reasons, GPU activity, GPU memory
          01_v0.4.1_docs_single_request.prom                                 |        |        | meta-llama/Llama-3.1-8B-Instruct: waiting by reason, preemptions, queue time, prefill time, prompt length, prefix cache, success ratio, finish reasons, GPU activity, GPU memory, process start time
          02_v0.5.1_issue13485_tp_labels_TRUNCATED.prom                      |        |        | Qwen-32B: requests waiting, waiting by reason, preemptions, TTFT, inter-token latency, queue time, prefill time, prompt length, prefix cache, success ratio, finish reasons, GPU activity, GPU memory, process start time
          03_v0.5.3-0.5.6_aibrix1614_dp_attention_pid_label_TRUNCATED.prom   |        |        |
          upcloud-l40s-single-gpu-no-pod.prom                                |        |        |
          lke-rtx4000ada-pod-attributed-xid.prom                             |        |        |
          vllm-0.2x-2026-09-20_qwen2.5-1.5b_mfu_sleep_created.txt            | LLMTimeToFirstTokenHigh | prefill-bound | qwen2.5-1.5b: GPU activity, GPU memory
          vllm-pr28792_api-server-count-8_pid-label_EXCERPT.prom             |        |        | Qwen/Qwen3-VL-8B-Instruct: requests running, requests waiting, waiting by reason, preemptions, TTFT, inter-token latency, queue time, prefill time, prompt length, prefix cache, success ratio, finish reasons, GPU activity, GPU memory, process start time
          nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt                     |        |        | meta/llama-3.1-8b-instruct: waiting by reason, preemptions, queue time, prefill time, prefix cache, GPU activity, GPU memory
          tgi-2.4-3.x_datadog-e2e.txt                                        |        |        | tgi-2-4-3-x-datadog-e2e: waiting by reason, KV cache usage, preemptions, TTFT, inter-token latency, prefill time, prefix cache, finish reasons, GPU activity, GPU memory, process start time
          """)
  void everyFiringAlertOnAReplayedCaptureHasAFinding(
      String capture, String alerts, String states, String notMeasured) {
    Diagnosis d = check(capture, ReplayedCaptures.run(capture), alerts, states);
    String got =
        d.notMeasured().stream()
            .map(n -> n.model() + ": " + String.join(", ", n.signals()))
            .collect(Collectors.joining("; "));
    assertThat(got).isEqualTo(notMeasured == null ? "" : notMeasured);
  }

  /** The assertions every row makes; returns the diagnosis for a row's own. */
  private static Diagnosis check(String row, Run r, String alerts, String states) {
    Diagnosis d = r.diagnosis();
    String all =
        d.findings().stream()
            .map(
                f ->
                    f.state().id()
                        + " "
                        + (f.pod().isEmpty() ? "(model)" : f.pod())
                        + " "
                        + f.symptoms().stream().map(Symptom::id).toList()
                        + ": "
                        + f.summary())
            .collect(Collectors.joining("\n"));
    // the surefire report keeps what each row gave (docs/diagnosis.md quotes it)
    System.out.println("== " + row + "\nfiring: " + r.firing() + "\n" + all);
    assertThat(r.firing().stream().map(PackAlerts.Firing::alert).collect(Collectors.toSet()))
        .as("alerts firing")
        .isEqualTo(words(alerts));
    for (PackAlerts.Firing a : r.firing()) {
      Symptom symptom = PackAlerts.SYMPTOMS.get(a.alert());
      assertThat(d.findings())
          .as(a + " needs a finding on its model that explains " + symptom.id() + "\n" + all)
          .anySatisfy(
              f -> {
                assertThat(f.model()).isEqualTo(a.model());
                assertThat(f.namespace()).isEqualTo(a.namespace());
                assertThat(f.symptoms()).contains(symptom);
                assertThat(f.evidence()).isNotEmpty();
                assertThat(f.evidence().get(0).query()).isNotBlank();
              });
    }
    Set<String> named = d.findings().stream().map(f -> f.state().id()).collect(Collectors.toSet());
    assertThat(named).as(all).containsAll(words(states));
    if (words(states).isEmpty()) {
      assertThat(d.findings()).as(all).isEmpty();
    }
    for (Finding f : d.findings()) {
      if (f.state() == State.CAUSE_NOT_FOUND) {
        assertThat(f.summary()).contains("cause not found");
        assertThat(f.symptoms()).hasSize(1);
      }
    }
    return d;
  }

  /** A capture added to SOURCES.md is diagnosed too: the replayed table has a row for each. */
  @Test
  void everyCaptureHasARow() throws Exception {
    String table =
        DiagnosisScenariosTest.class
            .getDeclaredMethod(
                "everyFiringAlertOnAReplayedCaptureHasAFinding",
                String.class,
                String.class,
                String.class,
                String.class)
            .getAnnotation(CsvSource.class)
            .textBlock();
    for (Captures.Entry c : Captures.all()) {
      assertThat(table)
          .as(c.path())
          .containsPattern("(?m)^" + Pattern.quote(c.fileName()) + "\\s+\\|");
    }
  }

  @Test
  void everyScenarioHasARow() throws Exception {
    String table =
        DiagnosisScenariosTest.class
            .getDeclaredMethod(
                "everyFiringAlertHasAFinding", String.class, String.class, String.class)
            .getAnnotation(CsvSource.class)
            .textBlock();
    for (Scenario s : Scenario.values()) {
      assertThat(table).as(s.cliName()).containsPattern("(?m)^" + s.cliName() + "\\s+\\|");
    }
  }
}
