package dev.infermon.llm.diagnosis;

import static dev.infermon.llm.diagnosis.SyntheticPods.SGLANG_ITL;
import static dev.infermon.llm.diagnosis.SyntheticPods.SGLANG_TTFT;
import static dev.infermon.llm.diagnosis.SyntheticPods.VLLM_ITL;
import static dev.infermon.llm.diagnosis.SyntheticPods.VLLM_PHASE;
import static dev.infermon.llm.diagnosis.SyntheticPods.VLLM_TOKENS;
import static dev.infermon.llm.diagnosis.SyntheticPods.VLLM_TTFT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.InventoryService;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The states and symptoms no simulator scenario shows, one pod each over 30 minutes of steady
 * values ({@link SyntheticPods}), diagnosed through {@link DiagnosisService} over the embedded
 * engine: slow streaming from a large batch or rejected drafts, symptoms with no cause and the
 * signals that were not there to read, failures by finish reason, and the alert pack's thresholds
 * as {@code llm.alerts} sets them. Each row: what the pod shows → the states named, the symptoms
 * tied to them, and what the diagnosis says it could not read.
 */
class DiagnosisStatesTest {
  /** One row: the pod, then what the diagnosis must say. */
  record Row(
      Consumer<SyntheticPods> pods,
      LlmConfig.Alerts alerts,
      String states,
      String symptoms,
      String summaryHas,
      String notRead) {}

  /** A vLLM pod serving steadily: short prompts, no queue, everything but GPUs exposed. */
  static SyntheticPods.Pod vllmBase(SyntheticPods p, String pod) {
    return p.vllm(pod)
        .gauge("vllm:num_requests_running", 8)
        .gauge("vllm:num_requests_waiting", 0)
        .gauge("vllm:kv_cache_usage_perc", 0.3)
        .counter("vllm:num_preemptions_total", 0)
        .counter("vllm:request_success_total", 2, "finished_reason", "stop")
        .counter("vllm:request_success_total", 0, "finished_reason", "length")
        .counter("vllm:request_success_total", 0, "finished_reason", "abort")
        .counter("vllm:request_success_total", 0, "finished_reason", "error")
        .counter("vllm:prefix_cache_queries_total", 1000)
        .counter("vllm:prefix_cache_hits_total", 500)
        .histogram("vllm:request_queue_time_seconds", VLLM_PHASE, 0.01, 2)
        .histogram("vllm:request_prefill_time_seconds", VLLM_PHASE, 0.2, 2)
        .histogram("vllm:request_prompt_tokens", VLLM_TOKENS, 500, 2);
  }

  static Row row(
      Consumer<SyntheticPods> pods,
      String states,
      String symptoms,
      String summaryHas,
      String notRead) {
    return new Row(pods, LlmConfig.Alerts.DEFAULT, states, symptoms, summaryHas, notRead);
  }

  /** The default pack's thresholds with {@code failure_min_count} set to {@code n}. */
  static LlmConfig.Alerts minFailed(long n) {
    LlmConfig.Alerts d = LlmConfig.Alerts.DEFAULT;
    return new LlmConfig.Alerts(
        d.enabled(),
        d.ttftQuantile(),
        d.ttftThreshold(),
        d.ttftFor(),
        d.waitingThreshold(),
        d.waitingFor(),
        d.failureRatio(),
        d.failureFor(),
        n);
  }

  static Stream<Arguments> rows() {
    return Stream.of(
        Arguments.of(
            "vLLM: tokens stream slowly while 96 requests decode",
            row(
                p ->
                    vllmBase(p, "a")
                        .gauge("vllm:num_requests_running", 96)
                        .histogram("vllm:time_to_first_token_seconds", VLLM_TTFT, 0.3, 2)
                        .histogram("vllm:inter_token_latency_seconds", VLLM_ITL, 0.15, 200),
                "decode-bound",
                "itl-high",
                "96 requests decode in the batch",
                "")),
        Arguments.of(
            "vLLM: tokens stream slowly, speculative decoding accepts a fifth of its drafts",
            row(
                p ->
                    vllmBase(p, "a")
                        .histogram("vllm:time_to_first_token_seconds", VLLM_TTFT, 0.3, 2)
                        .histogram("vllm:inter_token_latency_seconds", VLLM_ITL, 0.15, 20)
                        .counter("vllm:spec_decode_num_drafts_total", 25)
                        .counter("vllm:spec_decode_num_draft_tokens_total", 100)
                        .counter("vllm:spec_decode_num_accepted_tokens_total", 20),
                "decode-bound",
                "itl-high",
                "accepts 20% of the drafted tokens",
                "")),
        Arguments.of(
            "vLLM: tokens stream slowly, small batch, no speculative decoding: cause not found",
            row(
                p ->
                    vllmBase(p, "a")
                        .histogram("vllm:time_to_first_token_seconds", VLLM_TTFT, 0.3, 2)
                        .histogram("vllm:inter_token_latency_seconds", VLLM_ITL, 0.15, 20),
                "cause-not-found",
                "itl-high",
                "mean inter-token latency is up to 0.15 s on pod ns/a; cause not found: every"
                    + " signal the states need was read",
                "")),
        Arguments.of(
            "SGLang: speculative decoding accepts 30% (0 between decode logs is no measurement)",
            row(
                p ->
                    p.sglang("s")
                        .gauge("sglang:num_running_reqs", 8)
                        .gauge("sglang:num_queue_reqs", 0)
                        .gauge("sglang:token_usage", 0.3)
                        .gauge("sglang:spec_accept_rate", 0.3)
                        .counter("sglang:num_requests_total", 2)
                        .histogram("sglang:time_to_first_token_seconds", SGLANG_TTFT, 0.3, 2)
                        .histogram("sglang:inter_token_latency_seconds", SGLANG_ITL, 0.15, 20),
                "decode-bound",
                "itl-high",
                "accepts 30% of the drafted tokens",
                "")),
        Arguments.of(
            "SGLang: acceptance reads 0 (no speculative forward): slow streaming left unexplained",
            row(
                p ->
                    p.sglang("s")
                        .gauge("sglang:num_running_reqs", 8)
                        .gauge("sglang:num_queue_reqs", 0)
                        .gauge("sglang:spec_accept_rate", 0)
                        .counter("sglang:num_requests_total", 2)
                        .histogram("sglang:inter_token_latency_seconds", SGLANG_ITL, 0.15, 20),
                "cause-not-found",
                "itl-high",
                "cause not found: could not read KV cache usage, preemptions",
                "KV cache usage, preemptions")),
        Arguments.of(
            "vLLM 0.4.3 names: TTFT 4.9 s, no queue time, prefill time or prefix cache to read",
            row(
                p ->
                    p.vllm("old")
                        .gauge("vllm:num_requests_running", 4)
                        .gauge("vllm:num_requests_waiting", 0)
                        .gauge("vllm:gpu_cache_usage_perc", 0.2)
                        .counter("vllm:num_preemptions_total", 0)
                        .counter("vllm:request_success_total", 2, "finished_reason", "stop")
                        .histogram("vllm:request_prompt_tokens", VLLM_TOKENS, 500, 2)
                        .histogram("vllm:time_to_first_token_seconds", VLLM_TTFT, 3, 2),
                "cause-not-found",
                "ttft-high",
                "TTFT p95 is up to 4.88 s on pod ns/old; cause not found: could not read waiting"
                    + " by reason, GPU activity, queue time, prefill time, prefix cache",
                "waiting by reason, GPU activity, queue time, prefill time, prefix cache")),
        Arguments.of(
            "vLLM: 64 requests decode while 30 wait throughout, KV half used: saturated, the"
                + " queue's trend said in words",
            row(
                p ->
                    vllmBase(p, "a")
                        .gauge("vllm:num_requests_running", 64)
                        .gauge("vllm:num_requests_waiting", 30)
                        .gauge("vllm:kv_cache_usage_perc", 0.5)
                        .histogram("vllm:time_to_first_token_seconds", VLLM_TTFT, 3, 2),
                "saturated",
                "ttft-high",
                "running pinned near its ceiling (median 64, max 64) while 30.0 requests waited"
                    + " throughout",
                "")),
        Arguments.of(
            "vLLM: TTFT 4.9 s without a queue, prompts of 12000 tokens, few prefix-cache hits",
            row(
                p ->
                    vllmBase(p, "a")
                        .counter("vllm:prefix_cache_hits_total", 50)
                        .histogram("vllm:request_prompt_tokens", VLLM_TOKENS, 12000, 2)
                        .histogram("vllm:request_prefill_time_seconds", VLLM_PHASE, 2, 2)
                        .histogram("vllm:time_to_first_token_seconds", VLLM_TTFT, 3, 2),
                "prefill-bound",
                "ttft-high",
                "prefill takes 2 s of the 3 s to the first token on average, the queue 0.01 s;"
                    + " prompts average 12000 tokens; the prefix cache serves 5% of prompt tokens",
                "")),
        Arguments.of(
            "vLLM: a tenth of the requests end in error, one in fifty aborted",
            row(
                p ->
                    vllmBase(p, "a")
                        .counter("vllm:request_success_total", 1.76, "finished_reason", "stop")
                        .counter("vllm:request_success_total", 0.2, "finished_reason", "error")
                        .counter("vllm:request_success_total", 0.04, "finished_reason", "abort")
                        .histogram("vllm:time_to_first_token_seconds", VLLM_TTFT, 0.3, 2),
                "errors-rising",
                "failures-high",
                "12.0% of finished requests fail in the second half of the window (12.0% in the"
                    + " first): error 10.0%, abort 2.0%",
                "")),
        Arguments.of(
            "SGLang: a tenth of the requests aborted, no finish reason to split them",
            row(
                p ->
                    p.sglang("s")
                        .gauge("sglang:num_running_reqs", 8)
                        .gauge("sglang:num_queue_reqs", 0)
                        .counter("sglang:num_requests_total", 2)
                        .counter("sglang:num_aborted_requests_total", 0.2),
                "errors-rising",
                "failures-high",
                "failed 10.0%, no finish reason exposed",
                "finish reasons")),
        Arguments.of(
            "TGI: a tenth of the requests fail validation; TGI's failures are not aborts",
            row(
                p ->
                    p.tgi("t")
                        .gauge("tgi_batch_current_size", 8)
                        .gauge("tgi_queue_size", 0)
                        .counter("tgi_request_success", 1.8)
                        .counter("tgi_request_failure", 0.2, "err", "validation"),
                "errors-rising",
                "failures-high",
                "10.0% of finished requests fail in the second half of the window (10.0% in the"
                    + " first): failed 10.0%, no finish reason exposed",
                "finish reasons")),
        Arguments.of(
            "TGI: a quarter of the requests fail, but only 3 in 5 minutes (the real TGI capture):"
                + " under failure_min_count, no symptom, nothing found",
            row(
                p ->
                    p.tgi("t")
                        .gauge("tgi_batch_current_size", 1)
                        .gauge("tgi_queue_size", 0)
                        .counter("tgi_request_success", 0.0286)
                        .counter("tgi_request_failure", 0.0095, "err", "validation"),
                "",
                "",
                "",
                "")),
        Arguments.of(
            "TGI: a tenth of the requests fail, 60 in 5 minutes, failure_min_count 55: counted",
            new Row(
                p ->
                    p.tgi("t")
                        .gauge("tgi_batch_current_size", 8)
                        .gauge("tgi_queue_size", 0)
                        .counter("tgi_request_success", 1.8)
                        .counter("tgi_request_failure", 0.2, "err", "validation"),
                minFailed(55),
                "errors-rising",
                "failures-high",
                "10.0% of finished requests fail in the second half of the window",
                "finish reasons")),
        Arguments.of(
            "TGI: the same 60 failures in 5 minutes under failure_min_count 65: not counted",
            new Row(
                p ->
                    p.tgi("t")
                        .gauge("tgi_batch_current_size", 8)
                        .gauge("tgi_queue_size", 0)
                        .counter("tgi_request_success", 1.8)
                        .counter("tgi_request_failure", 0.2, "err", "validation"),
                minFailed(65),
                "",
                "",
                "",
                "")),
        Arguments.of(
            "llm.alerts lowers the TTFT limit to 1 s: TTFT p95 of 2.4 s is a symptom",
            new Row(
                p ->
                    vllmBase(p, "a").histogram("vllm:time_to_first_token_seconds", VLLM_TTFT, 2, 2),
                new LlmConfig.Alerts(
                    true,
                    0.95,
                    Duration.ofSeconds(1),
                    Duration.ofMinutes(10),
                    50,
                    Duration.ofMinutes(15),
                    0.05,
                    Duration.ofMinutes(15),
                    10),
                "cause-not-found",
                "ttft-high",
                "TTFT p95 is up to 2.42 s on pod ns/a; cause not found: could not read waiting by"
                    + " reason, GPU activity",
                "waiting by reason, GPU activity")),
        Arguments.of(
            "the same pod under the default 2 s limit: no symptom, nothing found",
            row(
                p ->
                    vllmBase(p, "a")
                        .histogram("vllm:time_to_first_token_seconds", VLLM_TTFT, 0.3, 2)
                        .histogram("vllm:inter_token_latency_seconds", VLLM_ITL, 0.02, 20),
                "",
                "",
                "",
                "")));
  }

  /**
   * A pod with no dcgm-exporter beside it, no waiting-by-reason family (SGLang) and no process
   * start time: those signals are listed as not measured, per pod, and never judged (no finding
   * rules their states out).
   */
  @Test
  void whatCouldNotBeReadIsListedPerPodAndNeverJudged() {
    SyntheticPods pods = new SyntheticPods(30);
    vllmBase(pods, "a")
        .histogram("vllm:time_to_first_token_seconds", VLLM_TTFT, 0.3, 2)
        .histogram("vllm:inter_token_latency_seconds", VLLM_ITL, 0.02, 20);
    pods.sglang("s")
        .gauge("sglang:num_running_reqs", 8)
        .gauge("sglang:num_queue_reqs", 0)
        .gauge("sglang:token_usage", 0.3)
        .counter("sglang:num_requests_total", 2)
        .histogram("sglang:time_to_first_token_seconds", SGLANG_TTFT, 0.3, 2);
    pods.write();
    Diagnosis d =
        new DiagnosisService(pods.backend, Catalog.builtIn())
            .diagnose(DiagnosisRequest.between(SyntheticPods.START, pods.end, 15_000));
    assertThat(d.findings()).isEmpty();
    assertThat(d.notMeasured())
        .containsExactly(
            new NotMeasured(
                "m",
                "ns",
                "a",
                List.of("waiting by reason", "GPU activity", "GPU memory", "process start time")),
            new NotMeasured(
                "m",
                "ns",
                "s",
                List.of(
                    "waiting by reason",
                    "preemptions",
                    "inter-token latency",
                    "queue time",
                    "prefill time",
                    "prompt length",
                    "prefix cache",
                    "finish reasons",
                    "GPU activity",
                    "GPU memory",
                    "process start time")));
    assertThat(DiagnosisJson.tree(d).get("notMeasured"))
        .asString()
        .contains("pod=s", "signals=[waiting by reason, preemptions");
  }

  /**
   * A page cut down to families diagnosis does not read (the SGLang 0.5.3–0.5.6 capture: only
   * {@code num_retracted_reqs}): the pod is not examined and the diagnosis says so, beside a pod it
   * did examine, instead of a bare "no findings" that reads as healthy.
   */
  @Test
  void aTargetWithNothingToReadIsNotExaminedAndSaidSo() {
    SyntheticPods pods = new SyntheticPods(30);
    vllmBase(pods, "a");
    pods.sglang("cut").gauge("sglang:num_retracted_reqs", 0);
    pods.write();
    Diagnosis d =
        new DiagnosisService(pods.backend, Catalog.builtIn())
            .diagnose(DiagnosisRequest.between(SyntheticPods.START, pods.end, 15_000));
    assertThat(d.pods()).containsExactly("ns/a (m)");
    assertThat(d.unexamined())
        .containsExactly(
            "ns/cut: its page has none of the families diagnosis reads per model and pod (it has 1"
                + " sglang family)");
    assertThat(DiagnosisJson.tree(d).get("unexamined")).asString().contains("ns/cut");
  }

  static Set<String> split(String s) {
    return s.isEmpty() ? Set.of() : new TreeSet<>(List.of(s.split(", ")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void theDiagnosisNamesWhatThePodShows(String name, Row row) {
    SyntheticPods pods = new SyntheticPods(30);
    row.pods().accept(pods);
    pods.write();
    LlmConfig.Alerts alerts = row.alerts();
    Diagnosis d =
        new DiagnosisService(
                pods.backend, new InventoryService(Catalog.builtIn(), pods.backend), () -> alerts)
            .diagnose(DiagnosisRequest.between(SyntheticPods.START, pods.end, 15_000));
    String all =
        d.findings().stream()
            .map(f -> f.state().id() + " " + f.symptoms() + " " + f.notRead() + ": " + f.summary())
            .collect(Collectors.joining("\n"));
    assertThat(d.findings().stream().map(f -> f.state().id()).collect(Collectors.toSet()))
        .as(all)
        .isEqualTo(row.states().isEmpty() ? Set.of() : Set.of(row.states().split(" ")));
    assertThat(
            d.findings().stream()
                .flatMap(f -> f.symptoms().stream())
                .map(Symptom::id)
                .collect(Collectors.toSet()))
        .as(all)
        .isEqualTo(row.symptoms().isEmpty() ? Set.of() : Set.of(row.symptoms().split(" ")));
    for (Finding f : d.findings()) {
      assertThat(f.summary()).as(all).contains(row.summaryHas());
      assertThat(f.evidence()).as(all).isNotEmpty();
      assertThat(new TreeSet<>(f.notRead())).as(all).isEqualTo(split(row.notRead()));
    }
  }
}
