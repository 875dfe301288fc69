package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.export.AlertPack;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * One model served by engines that preempt (vLLM, SGLang) and engines that report no preemption
 * (NVIDIA NIM, TGI), as the pack's {@code mixed_queue} promtool test has them: requests queued
 * while preempting are judged per preempting engine, that engine's own queue over the limit while
 * that engine preempts, so the queues of NIM's and TGI's pods are never added to vLLM's, nor a vLLM
 * queue paired with SGLang's retractions; where both preempt, the larger queue is the model's.
 * Diagnosis sees the symptom on the model exactly where the default alert fires, with the queue the
 * alert has. No pod alone is over the limit, so what is seen is the model's. The pods are {@link
 * SyntheticPods}, evaluated by the pack itself ({@link PackAlerts}).
 */
class MixedQueueDiagnosisTest {
  private static final int MINUTES = 30;

  /**
   * A vLLM pod with {@code waiting} requests queued and {@code preemptions} per second; its running
   * requests are not exposed, so no pod is named saturated and what the model shows is the model's
   * own finding, with its value.
   */
  private static void vllm(SyntheticPods p, String pod, double waiting, double preemptions) {
    p.vllm(pod)
        .gauge("vllm:num_requests_waiting", waiting)
        .counter("vllm:num_preemptions_total", preemptions);
  }

  /** A NIM pod with {@code waiting} queued; {@code running} (0: not exposed) of 32 slots. */
  private static void nim(SyntheticPods p, double waiting, double running) {
    SyntheticPods.Pod pod = p.nim("nim-0", "m").gauge("num_requests_waiting", waiting);
    if (running > 0) {
      pod.gauge("num_requests_running", running).gauge("num_request_max", 32);
    }
  }

  /** A TGI pod with {@code waiting} queued; {@code running} (0: not exposed) in its batch. */
  private static void tgi(SyntheticPods p, double waiting, double running) {
    SyntheticPods.Pod pod = p.tgi("tgi-0").gauge("tgi_queue_size", waiting);
    if (running > 0) {
      pod.gauge("tgi_batch_current_size", running);
    }
  }

  /** The alert's firing after the window, and every finding of the diagnosis at its end. */
  private record Run(boolean fires, Diagnosis diagnosis) {
    List<Finding> findings() {
      return diagnosis.findings();
    }

    boolean seen() {
      return findings().stream()
          .anyMatch(f -> f.symptoms().contains(Symptom.QUEUED_WHILE_PREEMPTING));
    }

    String all() {
      return findings().stream()
          .map(f -> f.state().id() + " " + f.pod() + " " + f.symptoms() + ": " + f.summary())
          .collect(Collectors.joining("\n"));
    }
  }

  private static Run run(SyntheticPods p) {
    p.write();
    PackAlerts pack = new PackAlerts(p.storage);
    for (long t = SyntheticPods.START + 60_000; t <= p.end; t += 60_000) {
      pack.eval(t);
    }
    Diagnosis d =
        new DiagnosisService(p.backend, Catalog.builtIn())
            .diagnose(DiagnosisRequest.between(SyntheticPods.START, p.end, 15_000));
    boolean fires = pack.firing().contains(new PackAlerts.Firing(AlertPack.QUEUED, "ns", "m"));
    return new Run(fires, d);
  }

  @Test
  void nimAndTgiQueuesBesideAPreemptingVllmQueueUnderTheLimitAreNotAdded() {
    SyntheticPods p = new SyntheticPods(MINUTES);
    vllm(p, "vllm-0", 30, 0.1);
    nim(p, 40, 32);
    tgi(p, 30, 32);
    Run r = run(p);
    assertThat(r.fires()).as(r.all()).isFalse();
    assertThat(r.seen()).as(r.all()).isFalse();
  }

  /** An SGLang pod with {@code waiting} queued and {@code retractions} per second, on TP rank 0. */
  private static void sglang(
      SyntheticPods p, String name, double waiting, double running, double retractions) {
    SyntheticPods.Pod pod =
        p.sglang(name)
            .gauge("sglang:num_queue_reqs", waiting, "tp_rank", "0")
            .counter("sglang:num_retracted_requests_total", retractions, "tp_rank", "0");
    if (running > 0) {
      pod.gauge("sglang:num_running_reqs", running, "tp_rank", "0");
    }
  }

  /** The one finding with the symptom, a model's cause-not-found, names the queue it saw. */
  private static void seenWith(Run r, int waiting) {
    assertThat(r.findings())
        .as(r.all())
        .filteredOn(f -> f.symptoms().contains(Symptom.QUEUED_WHILE_PREEMPTING))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.summary())
                    .contains(
                        "up to "
                            + waiting
                            + " requests wait while the engine preempts on model m"));
  }

  @Test
  void aVllmQueueIsNotPairedWithSglangRetractions() {
    SyntheticPods p = new SyntheticPods(MINUTES);
    vllm(p, "vllm-0", 30, 0);
    vllm(p, "vllm-1", 30, 0);
    sglang(p, "sglang-0", 10, 32, 0.1);
    Run r = run(p);
    assertThat(r.fires()).as(r.all()).isFalse();
    assertThat(r.seen()).as(r.all()).isFalse();
  }

  @Test
  void anSglangQueueOverTheLimitWhileItRetractsIsSeenWithItsQueueAlone() {
    SyntheticPods p = new SyntheticPods(MINUTES);
    vllm(p, "vllm-0", 30, 0.1);
    sglang(p, "sglang-0", 30, 0, 0.1);
    sglang(p, "sglang-1", 30, 0, 0.1);
    Run r = run(p);
    assertThat(r.fires()).as(r.all()).isTrue();
    // SGLang's 60, the larger of the two preempting engines' queues, not their sum of 90
    seenWith(r, 60);
  }

  @Test
  void preemptingVllmPodsQueuedOverTheLimitAreSeenWithTheirQueueAlone() {
    SyntheticPods p = new SyntheticPods(MINUTES);
    vllm(p, "vllm-0", 30, 0.1);
    vllm(p, "vllm-1", 30, 0.1);
    tgi(p, 40, 0);
    nim(p, 40, 0);
    Run r = run(p);
    assertThat(r.fires()).as(r.all()).isTrue();
    // the value the alert has: vLLM's 60, not the 140 of every engine's queue
    seenWith(r, 60);
  }

  /**
   * A model's preempting queue is not explained by a pod of an engine that never preempts: NIM's
   * and TGI's pods pinned at their ceiling are named saturated, with their own queues, and neither
   * is the cause of the alert on vLLM's queue, which stays a model's cause-not-found.
   */
  @Test
  void saturatedNimAndTgiPodsDoNotExplainAPreemptingVllmQueue() {
    SyntheticPods p = new SyntheticPods(MINUTES);
    vllm(p, "vllm-0", 30, 0.1);
    vllm(p, "vllm-1", 30, 0.1);
    nim(p, 40, 32);
    tgi(p, 40, 32);
    Run r = run(p);
    assertThat(r.fires()).as(r.all()).isTrue();
    assertThat(r.findings())
        .as(r.all())
        .filteredOn(f -> f.state() == State.SATURATED)
        .extracting(Finding::pod)
        .containsExactlyInAnyOrder("nim-0", "tgi-0");
    seenWith(r, 60);
    Map<String, String> labels = Map.of("namespace", "ns", "model_name", "m");
    assertThat(AlertCauses.matching(r.diagnosis(), AlertPack.QUEUED, labels))
        .as(r.all())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.state()).isEqualTo(State.CAUSE_NOT_FOUND);
              assertThat(f.pod()).isEmpty();
            });
  }
}
