package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * An NVIDIA NIM pod and a trtllm-serve 1.0 pod side by side, each serving its own model, with the
 * names both spell alike ({@code time_to_first_token_seconds}, {@code e2e_request_latency_seconds},
 * {@code request_success_total}) told apart only by TensorRT-LLM's {@code engine_type} label
 * (docs/catalog.md, "Names two engines share"). When one of them is slow to the first token, the
 * default TTFT alert fires on its model alone, and diagnosis names that pod and its cause with
 * evidence, never the other pod: neither engine's series are read as the other's. NIM saturated
 * (its batch at {@code num_request_max} while requests queue) is named saturated; TensorRT-LLM 1.0
 * exposes no queue, batch or KV family, so its slow first token has no cause that can be read, and
 * the finding says so with what it could not read. No capture of a 1.0 page exists
 * (docs/catalog.md): the pods are {@link SyntheticPods} in the layout of the NIM capture and of
 * #5785's sample page.
 */
class NimTrtllmDiagnosisTest {
  private static final int MINUTES = 30;

  /** NIM's TTFT bounds (the NIM capture: vLLM's up to 10 s). */
  private static final double[] NIM_TTFT = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0
  };

  /** TensorRT-LLM 1.0's TTFT bounds (trtllm.yaml, collector @ 89fd9b74). */
  private static final double[] TRTLLM_TTFT = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    20.0, 40.0, 80.0, 160.0, 640.0, 2560.0
  };

  /** A NIM pod serving llama: TTFT {@code ttft}, {@code running} of 64 running, {@code waiting}. */
  private static void nim(SyntheticPods p, double ttft, double running, double waiting) {
    p.nim("nim-0", "llama")
        .gauge("num_requests_running", running)
        .gauge("num_requests_waiting", waiting)
        .gauge("num_request_max", 64)
        .gauge("gpu_cache_usage_perc", 0.5)
        .counter("request_finish_total", 2, "finished_reason", "stop")
        .counter("request_success_total", 2)
        .counter("request_failure_total", 0)
        .histogram("time_to_first_token_seconds", NIM_TTFT, ttft, 2)
        .histogram("e2e_request_latency_seconds", NIM_TTFT, ttft + 2, 2);
  }

  /** A trtllm-serve 1.0 pod serving qwen (its workload): TTFT {@code ttft}. */
  private static void trtllm(SyntheticPods p, double ttft) {
    p.trtllm10("trt-0", "qwen")
        .counter("request_success_total", 5, "finished_reason", "stop")
        .histogram("time_to_first_token_seconds", TRTLLM_TTFT, ttft, 5)
        .histogram("e2e_request_latency_seconds", TRTLLM_TTFT, ttft + 0.5, 5)
        .histogram("request_queue_time_seconds", TRTLLM_TTFT, 0.01, 5);
  }

  /**
   * The pods written, the pack evaluated every minute, and the diagnosis at the end, which examines
   * each pod as its own engine's, serving its own model (read as vLLM's, the 1.0 pod would be a pod
   * of model "undefined" too).
   */
  private static PackAlerts.Firing[] run(SyntheticPods p, List<Finding> out) {
    p.write();
    PackAlerts pack = new PackAlerts(p.storage);
    for (long t = SyntheticPods.START + 60_000; t <= p.end; t += 60_000) {
      pack.eval(t);
    }
    Diagnosis d =
        new DiagnosisService(p.backend, Catalog.builtIn())
            .diagnose(DiagnosisRequest.between(SyntheticPods.START, p.end, 15_000));
    out.addAll(d.findings());
    assertThat(d.pods()).containsExactlyInAnyOrder("ns/nim-0 (llama)", "ns/trt-0 (qwen)");
    return pack.firing().toArray(PackAlerts.Firing[]::new);
  }

  private static String all(List<Finding> findings) {
    return findings.stream()
        .map(
            f ->
                f.state().id()
                    + " "
                    + f.pod()
                    + " "
                    + f.model()
                    + " "
                    + f.symptoms()
                    + ": "
                    + f.summary()
                    + " "
                    + f.notRead())
        .collect(Collectors.joining("\n"));
  }

  @Test
  void aSaturatedNimPodIsNamedAndTheFastTrtllmPodIsNot() {
    SyntheticPods p = new SyntheticPods(MINUTES);
    nim(p, 3.0, 64, 40);
    trtllm(p, 0.05);
    List<Finding> findings = new java.util.ArrayList<>();
    PackAlerts.Firing[] firing = run(p, findings);
    String all = all(findings);
    assertThat(firing)
        .as(all)
        .containsExactly(new PackAlerts.Firing("LLMTimeToFirstTokenHigh", "ns", "llama"));
    assertThat(findings)
        .as(all)
        .anySatisfy(
            f -> {
              assertThat(f.state()).isEqualTo(State.SATURATED);
              assertThat(f.pod()).contains("nim-0");
              assertThat(f.model()).isEqualTo("llama");
              assertThat(f.symptoms()).contains(Symptom.TTFT_HIGH);
              assertThat(f.evidence()).isNotEmpty();
              assertThat(f.evidence().get(0).query()).isNotBlank();
            });
    assertThat(findings).as(all).noneMatch(f -> f.pod().contains("trt-0"));
    assertThat(findings).as(all).noneMatch(f -> f.model().equals("qwen"));
  }

  @Test
  void aSlowTrtllmPodIsNamedWithWhatCouldNotBeReadAndTheNimPodIsNot() {
    SyntheticPods p = new SyntheticPods(MINUTES);
    nim(p, 0.05, 8, 0);
    trtllm(p, 3.0);
    List<Finding> findings = new java.util.ArrayList<>();
    PackAlerts.Firing[] firing = run(p, findings);
    String all = all(findings);
    assertThat(firing)
        .as(all)
        .containsExactly(new PackAlerts.Firing("LLMTimeToFirstTokenHigh", "ns", "qwen"));
    assertThat(findings)
        .as(all)
        .anySatisfy(
            f -> {
              assertThat(f.pod()).contains("trt-0");
              assertThat(f.model()).isEqualTo("qwen");
              assertThat(f.symptoms()).contains(Symptom.TTFT_HIGH);
              assertThat(f.evidence()).isNotEmpty();
              assertThat(f.evidence().get(0).query()).isNotBlank();
            });
    assertThat(findings).as(all).noneMatch(f -> f.pod().contains("nim-0"));
    assertThat(findings).as(all).noneMatch(f -> f.model().equals("llama"));
    assertThat(findings)
        .as(all)
        .filteredOn(f -> f.pod().contains("trt-0"))
        .allSatisfy(
            f -> {
              assertThat(f.state()).isEqualTo(State.CAUSE_NOT_FOUND);
              assertThat(f.notRead()).contains("requests waiting", "requests running");
            });
  }
}
