package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.simulator.testing.Captures;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Names against fleets of real captures ({@code ../shared/fixtures}), where the catalog's history
 * and conditions meet real pages. A dcgm field the catalog knows under a hardware or counters-CSV
 * condition, absent from the exporter, is a conditional finding (info for hardware the GPU lacks, a
 * warning for a CSV line to add), never an unknown-metric error nor a did-you-mean to another
 * field: {@code DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL} is in the default counters CSV, the PCIe RTX
 * 4000 Ada exports it at 0, the PCIe L40S not at all (DCGM answers blank without NVLink and the
 * exporter skips blank values, dcgm-ack.md §1.3). A name every endpoint's release is either too old
 * or too new for is a removed one with its replacement, not an unknown one; a name every endpoint's
 * release predates is {@code added-later}, a warning with the upgrade, while a misspelt one stays
 * an unknown-metric error. NVIDIA NIM's fixed subset is an error in NIM's own spelling (no endpoint
 * serves it) and a warning in vLLM's (right for vLLM pods), once for the spellings or-ed together;
 * a vLLM name {@code and}-ed with such a family is no misspelling, since NIM's pods cannot meet the
 * condition in any spelling (the default pack's queue-while-preempting rule reads vLLM's pods
 * only). A fix names only what the captures' releases expose: a rename's other name, a replacement
 * or a did-you-mean that no endpoint's release has would send the user to another empty query.
 */
class CaptureNamesLintTest {
  private static final String VLLM =
      "vllm-0.4.3.txt vllm-0.11.x-idle.txt vllm-0.2x-2026-09-20_qwen2.5-1.5b_mfu_sleep_created.txt";

  private static Reference reference(String captures) {
    return SimulatedEndpoints.captureReference(
        Arrays.stream(captures.split(" ")).map(Captures::get).toList());
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # captures (VLLM: 0.4.3, 0.11, 0.2x) | query                                                | finding                        | words
          upcloud-l40s-single-gpu-no-pod.prom  | sum by (gpu) (rate(DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL[5m])) | conditional-metric-off info | GPUs with NVLink
          lke-rtx4000ada-pod-attributed-xid.prom | sum by (gpu) (rate(DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL[5m])) | -                         | -
          upcloud-l40s-single-gpu-no-pod.prom  | sum by (gpu) (rate(DCGM_FI_DEV_NVLINK_BANDWIDTH_L0[5m])) | conditional-metric-off warning | counters CSV
          upcloud-l40s-single-gpu-no-pod.prom  | sum by (gpu) (rate(DCGM_EXP_XID_ERRORS_COUNT[5m]))      | conditional-metric-off warning | counters CSV
          upcloud-l40s-single-gpu-no-pod.prom  | avg by (gpu) (DCGM_FI_DEV_GPU_TEMP)                     | -                              | -
          VLLM                                 | sum(rate(vllm:gpu_prefix_cache_hits_total[5m]))         | removed-metric error           | before 0.8
          vllm-0.11.x-idle.txt                 | sum(rate(vllm:gpu_prefix_cache_hits_total[5m]))         | removed-metric error           | hidden since vLLM 0.11
          vllm-0.4.3.txt                       | sum(rate(vllm:gpu_prefix_cache_hits_total[5m]))         | added-later warning            | added in vLLM 0.8
          01_v0.4.1_docs_single_request.prom   | sum(rate(sglang:cached_tokens_total[5m]))               | added-later warning            | added in SGLang 0.4.6
          01_v0.4.1_docs_single_request.prom   | sum(rate(sglang:cached_tokns_total[5m]))                | unknown-metric error           | not a known metric
          vllm-pr28792_api-server-count-8_pid-label_EXCERPT.prom | sum(rate(vllm:estimated_flops_per_gpu_total[5m])) | added-later warning | either the endpoints run a release before vLLM 0.13
          nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt | sum(rate(num_preemptions_total[5m]))          | unknown-metric error           | NVIDIA NIM does not expose
          nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt | sum(rate(vllm:num_preemptions_total[5m]))     | unknown-metric warning         | NVIDIA NIM does not expose
          nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt | sum(rate(vllm:num_preemptions_total[5m]) or rate(ray_vllm:num_preemptions_total[5m])) | unknown-metric warning | NVIDIA NIM does not expose vllm:
          nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt | sum(vllm:num_requests_waiting)                | prefix-spelling error          | the endpoints spell it num_requests_waiting
          nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt | (sum(vllm:num_requests_waiting) > 50) and (sum(rate(vllm:num_preemptions_total[5m])) > 0) | unknown-metric warning | NVIDIA NIM does not expose vllm:num_preemptions_total
          nim-llm-2024-10-30_llama-3.1-8b_unprefixed.txt | (sum(vllm:num_requests_waiting) > 50) and (sum(vllm:num_requests_running) > 0) | prefix-spelling error; prefix-spelling error | the endpoints spell it num_requests_waiting
          vllm-pr28792_api-server-count-8_pid-label_EXCERPT.prom | (sum(rate(vllm:request_success_total[5m])) > 0) and (sum(rate(vllm:request_success_total{finished_reason="abort"}[5m]) or rate(request_failure_total[5m])) > 0) | unknown-metric warning | vllm:request_success_total is missing from the endpoints
          VLLM                                 | sum(rate(vllm:prefix_cache_hits_total[5m]))             | -                              | -
          """)
  void aNameIsJudgedByTheReleasesAndHardwareOfTheCaptures(
      String captures, String query, String expected, String words) {
    LintResult r =
        new LintRun(reference(captures.equals("VLLM") ? VLLM : captures), LintOptions.DEFAULT)
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

  /**
   * vLLM's renames (vllm.yaml: {@code kv_cache_usage_perc} from {@code gpu_cache_usage_perc} in
   * 0.9.2, {@code prefix_cache_hits_total} from {@code gpu_prefix_cache_hits_total} in 0.9.2, which
   * 0.8 added, {@code inter_token_latency_seconds} from {@code time_per_output_token_seconds} in
   * 0.11) against captures on either side of them: the other name is offered only where the
   * capture's release has it.
   */
  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # capture                         | query                                                     | finding              | fix (- none)
          vllm-0.4.3.txt                    | max(vllm:kv_cache_usage_perc)                             | added-later warning | upgrade vLLM to 0.9.2 or later, or drop the query; on older releases use vllm:gpu_cache_usage_perc
          vllm-0.4.3.txt                    | sum(rate(vllm:inter_token_latency_seconds_bucket[5m]))    | added-later warning | upgrade vLLM to 0.11 or later, or drop the query; on older releases use vllm:time_per_output_token_seconds_bucket
          vllm-v0-ray2.32-serve_rayprefix.txt | max(ray_vllm:kv_cache_usage_perc)                       | added-later warning | upgrade vLLM to 0.9.2 or later, or drop the query; on older releases use ray_vllm:gpu_cache_usage_perc
          vllm-0.4.3.txt                    | sum(rate(vllm:prefix_cache_hits_total[5m]))               | added-later warning | upgrade vLLM to 0.9.2 or later, or drop the query
          vllm-0.4.3.txt                    | sum(rate(vllm:gpu_prefix_cache_hits_total[5m]))           | added-later warning | upgrade vLLM to 0.8 or later, or drop the query
          vllm-0.11.x-idle.txt              | sum(rate(vllm:gpu_prefix_cache_hits_total[5m]))           | removed-metric error | use vllm:prefix_cache_hits_total
          vllm-0.2x-2026-09-20_qwen2.5-1.5b_mfu_sleep_created.txt | max(vllm:gpu_cache_usage_perc)      | removed-metric error | use vllm:kv_cache_usage_perc
          vllm-0.2x-2026-09-20_qwen2.5-1.5b_mfu_sleep_created.txt | sum(rate(vllm:time_per_output_token_seconds_bucket[5m])) | removed-metric error | use vllm:inter_token_latency_seconds_bucket
          """)
  void aFixNamesOnlyWhatTheCapturesReleaseExposes(
      String capture, String query, String expected, String fix) {
    LintResult r =
        new LintRun(reference(capture), LintOptions.DEFAULT)
            .run(List.of(LintInput.expr("query", query)));
    String got =
        r.findings().stream()
            .map(f -> f.check().id() + " " + f.severity().label() + " | " + f.fix())
            .collect(Collectors.joining("; "));
    assertThat(got).as("%s", r.findings()).isEqualTo(expected + " | " + (fix == null ? "" : fix));
  }
}
