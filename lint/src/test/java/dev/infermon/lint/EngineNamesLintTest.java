package dev.infermon.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every engine's names against a fleet of that engine alone (simulated pods, or the catalog for
 * Dynamo, which the simulator does not serve): a name the engine really exposes gets no finding,
 * and a name in another engine's spelling, of another generation or misspelled gets the finding
 * whose fix names the engine's own spelling.
 */
class EngineNamesLintTest {
  /** A fleet without vLLM and SGLang pods, to add one engine's to. */
  private static FleetConfigBuilder none() {
    return FleetConfig.builder()
        .vllmPods(0)
        .legacyVllmPods(0)
        .dataParallelPods(0)
        .sglangPods(0)
        .sglangGatewayPods(0)
        .prefillDecode(false);
  }

  /** The fleets by name: each serves one engine (LMCache inside one vLLM pod). */
  private static final Map<String, FleetConfig> FLEETS =
      Map.of(
          "tgi", none().tgiPods(1).build(),
          "triton", none().tritonPods(1).build(),
          "llamacpp", none().llamacppPods(1).build(),
          "trtllm", none().trtllmPods(1).build(),
          "trtllm10", none().trtllmPods(1).trtllmRelease10(1).build(),
          "nim", none().nimPods(1).build(),
          "lmcache", none().vllmPods(1).lmcachePods(1).build());

  private static final Map<String, Reference> REFS = new ConcurrentHashMap<>();

  private static Reference ref(String fleet) {
    if (fleet.equals("dynamo")) {
      return Reference.catalogOnly(Catalog.builtIn());
    }
    return REFS.computeIfAbsent(
        fleet,
        f ->
            Reference.of(
                Catalog.builtIn(),
                SimulatedEndpoints.inventory(FLEETS.get(f), Duration.ofMinutes(5)),
                Reference.Mode.LIVE));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # fleet  | query                                                    | findings (check severity: fix)
          tgi      | tgi_queue_size                                           | -
          tgi      | sum(rate(tgi_request_success[5m]))                       | -
          tgi      | histogram_quantile(0.9, sum by (le) (rate(tgi_request_queue_duration_bucket[5m]))) | -
          tgi      | tgi:queue_size                                           | prefix-spelling ERROR: use tgi_queue_size
          tgi      | sum(rate(tgi_request_success_total[5m]))                 | unknown-metric ERROR: use tgi_request_success
          tgi      | histogram_quantile(0.9, sum by (le) (rate(tgi_request_skipped_tokens_bucket[5m]))) | removed-metric ERROR:
          triton   | sum(nv_trt_llm_request_metrics{request_type="waiting"})  | -
          triton   | sum(rate(nv_inference_request_success{model="tensorrt_llm"}[5m])) | -
          triton   | sum(trt_llm_request_metrics{request_type="waiting"})     | prefix-spelling ERROR: use nv_trt_llm_request_metrics
          triton   | sum(rate(nv_inference_request_success_total[5m]))        | unknown-metric ERROR: use nv_inference_request_success
          llamacpp | llamacpp:requests_deferred                               | -
          llamacpp | llamacpp:n_tokens_max                                    | -
          llamacpp | llamacpp_requests_deferred                               | prefix-spelling ERROR: use llamacpp:requests_deferred
          llamacpp | llamacpp:n_past_max                                      | removed-metric ERROR: use llamacpp:n_tokens_max
          trtllm   | trtllm_num_requests_waiting                              | -
          trtllm   | trtllm:num_requests_waiting                              | prefix-spelling ERROR: use trtllm_num_requests_waiting
          trtllm   | sum(rate(request_success_total{engine_type!=""}[5m]))    | prefix-spelling ERROR: use trtllm_request_success_total
          trtllm10 | sum(rate(request_success_total{engine_type!=""}[5m]))    | -
          nim      | num_requests_running                                     | -
          nim      | sum(rate(request_finish_total[5m]))                      | -
          nim      | vllm:num_requests_running                                | prefix-spelling ERROR: use num_requests_running
          nim      | sum(rate(vllm:request_success_total[5m]))                | prefix-spelling ERROR: use request_finish_total
          dynamo   | sum(dynamo_frontend_active_requests)                     | -
          dynamo   | sum(dynamo_frontend_inflight_requests)                   | deprecated-metric WARNING: use dynamo_frontend_active_requests
          dynamo   | sum(dynamo:frontend_active_requests)                     | prefix-spelling ERROR: use dynamo_frontend_active_requests
          dynamo   | max(dynamo_component_gpu_cache_usage_percent)            | -
          dynamo   | max(dynamo_component_kvstats_gpu_cache_usage_percent)    | removed-metric WARNING: use dynamo_component_gpu_cache_usage_percent
          dynamo   | sum(dynamo_component_kvstats_total_blocks)               | removed-metric WARNING: use dynamo_component_total_blocks
          dynamo   | sum(dynamo_component_kvstats_active_blocks)              | removed-metric WARNING:
          dynamo   | max(dynamo_component_kvstats_gpu_prefix_cache_hit_rate)  | removed-metric WARNING:
          lmcache  | sum(max without (worker_id, role) (rate(lmcache:num_hit_tokens_total[5m]))) | -
          lmcache  | sum(max without (worker_id, role) (rate(lmcache_num_hit_tokens_total[5m]))) | prefix-spelling ERROR: use lmcache:num_hit_tokens_total
          """)
  void eachEnginesNamesAreJudgedWithItsSpelling(String fleet, String query, String expected) {
    LintResult r =
        new LintRun(ref(fleet), LintOptions.DEFAULT).run(List.of(LintInput.expr("query", query)));
    String got =
        r.findings().stream()
            .map(f -> f.check().id() + " " + f.severity() + ": " + f.fix())
            .collect(Collectors.joining("; "))
            .trim();
    assertThat(got).as("%s", r.findings()).isEqualTo(expected == null ? "" : expected);
  }
}
