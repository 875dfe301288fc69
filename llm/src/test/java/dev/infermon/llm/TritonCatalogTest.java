package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.EngineDetector;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.PageFamilies;
import dev.infermon.llm.signals.Signal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Triton's TensorRT-LLM backend is an engine of its own ({@code triton.yaml}): its nv_trt_llm_*
 * families are gauges split by a category label beside Triton's nv_inference_* counters. The pages
 * are written in the layout of the backend README's sample page (families and labels as there,
 * samples shortened); they are not captures.
 */
class TritonCatalogTest {
  private static final Catalog CATALOG = Catalog.builtIn();

  /** The families every reporter layout writes, as the README's sample shows them. */
  private static final String COMMON =
      """
      # HELP nv_trt_llm_request_metrics TRT LLM request metrics
      # TYPE nv_trt_llm_request_metrics gauge
      nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="context",version="1"} 1
      nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="scheduled",version="1"} 1
      nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="max",version="1"} 512
      nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="active",version="1"} 0
      # HELP nv_trt_llm_runtime_memory_metrics TRT LLM runtime memory metrics
      # TYPE nv_trt_llm_runtime_memory_metrics gauge
      nv_trt_llm_runtime_memory_metrics{memory_type="gpu",model="tensorrt_llm",version="1"} 1610236
      # HELP nv_trt_llm_kv_cache_block_metrics TRT LLM KV cache block metrics
      # TYPE nv_trt_llm_kv_cache_block_metrics gauge
      nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="tokens_per",model="tensorrt_llm",version="1"} 64
      nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="max",model="tensorrt_llm",version="1"} 6239
      # HELP nv_trt_llm_inflight_batcher_metrics TRT LLM inflight_batcher-specific metrics
      # TYPE nv_trt_llm_inflight_batcher_metrics gauge
      nv_trt_llm_inflight_batcher_metrics{inflight_batcher_specific_metric="micro_batch_id",model="tensorrt_llm",version="1"} 0
      # HELP nv_trt_llm_general_metrics General TRT LLM metrics
      # TYPE nv_trt_llm_general_metrics gauge
      nv_trt_llm_general_metrics{general_type="iteration_counter",model="tensorrt_llm",version="1"} 0
      # HELP nv_inference_request_success Number of successful inference requests, all batch sizes
      # TYPE nv_inference_request_success counter
      nv_inference_request_success{model="tensorrt_llm",version="1"} 0
      # HELP nv_inference_request_failure Number of failed inference requests, all batch sizes
      # TYPE nv_inference_request_failure counter
      nv_inference_request_failure{model="tensorrt_llm",version="1"} 0
      # HELP nv_inference_count Number of inferences performed (does not include cached requests)
      # TYPE nv_inference_count counter
      nv_inference_count{model="tensorrt_llm",version="1"} 0
      # HELP nv_inference_exec_count Number of model executions performed (does not include cached requests)
      # TYPE nv_inference_exec_count counter
      nv_inference_exec_count{model="tensorrt_llm",version="1"} 0
      # HELP nv_inference_request_duration_us Cumulative inference request duration in microseconds (includes cached requests)
      # TYPE nv_inference_request_duration_us counter
      nv_inference_request_duration_us{model="tensorrt_llm",version="1"} 0
      # HELP nv_inference_pending_request_count Instantaneous number of pending requests awaiting execution per-model.
      # TYPE nv_inference_pending_request_count gauge
      nv_inference_pending_request_count{model="tensorrt_llm",version="1"} 0
      """;

  /** What reporter 0d5352f5 adds: the disaggregated-serving counters and token histograms. */
  private static final String LATEST =
      """
      # HELP nv_trt_llm_disaggregated_serving_metrics TRT LLM disaggregated serving metrics
      # TYPE nv_trt_llm_disaggregated_serving_metrics counter
      nv_trt_llm_disaggregated_serving_metrics{disaggregated_serving_type="request_count",model="tensorrt_llm",version="1"} 0
      # HELP nv_llm_output_token_len TRT LLM response metrics
      # TYPE nv_llm_output_token_len histogram
      nv_llm_output_token_len_count{model="tensorrt_llm",response_metric_type="total_output_tokens",version="1"} 0
      nv_llm_output_token_len_sum{model="tensorrt_llm",response_metric_type="total_output_tokens",version="1"} 0
      nv_llm_output_token_len_bucket{model="tensorrt_llm",response_metric_type="total_output_tokens",version="1",le="10"} 0
      nv_llm_output_token_len_bucket{model="tensorrt_llm",response_metric_type="total_output_tokens",version="1",le="50"} 0
      nv_llm_output_token_len_bucket{model="tensorrt_llm",response_metric_type="total_output_tokens",version="1",le="100"} 0
      nv_llm_output_token_len_bucket{model="tensorrt_llm",response_metric_type="total_output_tokens",version="1",le="500"} 0
      nv_llm_output_token_len_bucket{model="tensorrt_llm",response_metric_type="total_output_tokens",version="1",le="1000"} 0
      nv_llm_output_token_len_bucket{model="tensorrt_llm",response_metric_type="total_output_tokens",version="1",le="+Inf"} 0
      """;

  private static Map<String, FamilyInfo> parse(String page) throws Exception {
    return PageFamilies.parse(page.getBytes(StandardCharsets.UTF_8), null);
  }

  @Test
  void theLatestLayoutIsTritonAtTheLatestReporter() throws Exception {
    Map<String, FamilyInfo> families = parse(COMMON + LATEST);
    assertThat(CatalogCheck.problems(CATALOG, "triton", "0d5352f5", families)).isEmpty();
    Detection d = new EngineDetector(CATALOG).detect(families);
    assertThat(d.engine()).isEqualTo("triton");
    assertThat(d.prefix()).isEqualTo("nv_");
    assertThat(d.unknownFamilies()).isEmpty();
    assertThat(d.versions().first().name()).isEqualTo("0d5352f5");
  }

  @Test
  void withoutTheDisaggregatedCountersThePageIsOlder() throws Exception {
    Map<String, FamilyInfo> families = parse(COMMON);
    assertThat(CatalogCheck.problems(CATALOG, "triton", "27e4bfbd", families)).isEmpty();
    Detection d = new EngineDetector(CATALOG).detect(families);
    assertThat(d.engine()).isEqualTo("triton");
    assertThat(d.versions().last().name()).isEqualTo("7f9aa468");
  }

  @Test
  void signalsSelectTheirCategoryLabel() {
    Map<Signal, List<SignalSource>> s = CATALOG.engine("triton").signals();
    assertThat(s.get(Signal.REQUESTS_RUNNING).get(0).match())
        .containsEntry("request_type", "active");
    assertThat(s.get(Signal.REQUESTS_WAITING).get(0).match())
        .containsEntry("request_type", "waiting");
    assertThat(s.get(Signal.KV_USAGE).get(0).match())
        .containsEntry("kv_cache_block_type", "fraction");
    assertThat(s.get(Signal.KV_CAPACITY_BLOCKS).get(0).match())
        .containsEntry("kv_cache_block_type", "max");
    // an ensemble's request is counted by every Triton model it passes through
    assertThat(s.get(Signal.REQUESTS_SUCCEEDED).get(0).match())
        .containsEntry("model", "tensorrt_llm");
  }

  @Test
  void theSimulatedPageIsCataloguedAndDetectedAsTheNewestReporter() throws Exception {
    dev.infermon.simulator.Fleet fleet =
        dev.infermon.simulator.Fleet.create(
            dev.infermon.simulator.FleetConfig.builder()
                .vllmPods(0)
                .legacyVllmPods(0)
                .sglangPods(0)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .tritonPods(1)
                .build(),
            SimulatedFleet.START);
    fleet.advance(java.time.Duration.ofMinutes(3));
    String pod = fleet.pods().get(0).info().name();
    String page = fleet.render(pod).orElseThrow();
    Map<String, FamilyInfo> families =
        PageFamilies.parse(page.getBytes(StandardCharsets.UTF_8), null);
    // names, types, labels (the failure reason among them) and buckets as triton.yaml has them
    assertThat(CatalogCheck.problems(CATALOG, "triton", "0d5352f5", families)).isEmpty();
    Detection d = new EngineDetector(CATALOG).detect(families);
    assertThat(d.engine()).isEqualTo("triton");
    assertThat(d.versions().toString()).isEqualTo("0d5352f5");
  }
}
