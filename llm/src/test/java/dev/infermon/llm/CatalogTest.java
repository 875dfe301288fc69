package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.CatalogException;
import dev.infermon.llm.catalog.CatalogLoader;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.NonEngineMetric;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.EngineDetector;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.PageFamilies;
import dev.infermon.llm.signals.Signal;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.router.ProductionStackRouter;
import dev.infermon.simulator.sglang.SglangRelease;
import dev.infermon.simulator.testing.Captures;
import dev.infermon.simulator.vllm.VllmRelease;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The catalog against every real capture and every page the simulator serves. */
class CatalogTest {
  private static final Catalog CATALOG = Catalog.builtIn();

  @ParameterizedTest(name = "{0} is {1} {2}")
  @CsvSource({
    "vllm-0.4.3.txt, vllm, 0.4",
    "vllm-0.11.x-idle.txt, vllm, 0.11",
    "vllm-v0-ray2.32-serve_rayprefix.txt, vllm, 0.5",
    // engine_sleep_state's labels among them: engine, model_name and sleep_state, as vLLM's
    // PrometheusStatLogger registers them (labelnames + ["sleep_state"])
    "vllm-0.2x-2026-09-20_qwen2.5-1.5b_mfu_sleep_created.txt, vllm, 0.24",
    "01_v0.4.1_docs_single_request.prom, sglang, 0.4.1",
    "02_v0.5.1_issue13485_tp_labels_TRUNCATED.prom, sglang, 0.5.1",
    "03_v0.5.3-0.5.6_aibrix1614_dp_attention_pid_label_TRUNCATED.prom, sglang, 0.5.3",
    "upcloud-l40s-single-gpu-no-pod.prom, dcgm, 4.4",
    "lke-rtx4000ada-pod-attributed-xid.prom, dcgm, 4.4",
    "tgi-2.4-3.x_datadog-e2e.txt, tgi, 2.4",
    "tgi-2.4-3.x_datadog-e2e.txt, tgi, 3.3",
  })
  void everyFamilyOfARealCaptureIsCatalogued(String file, String engine, String release)
      throws Exception {
    Map<String, FamilyInfo> families;
    families = PageFamilies.parse(Captures.get(file).bytes(), null);
    assertThat(CatalogCheck.problems(CATALOG, engine, release, families)).isEmpty();
    Detection d = new EngineDetector(CATALOG).detect(families);
    assertThat(d.engine()).isEqualTo(engine);
    assertThat(d.versions()).isNotNull();
    assertThat(d.versions().contains(CATALOG.engine(engine).version(release).orElseThrow()))
        .as("%s detected as %s", file, d.versions())
        .isTrue();
  }

  static Stream<Arguments> simulatorPages() {
    Stream.Builder<Arguments> out = Stream.builder();
    for (VllmRelease legacy : new VllmRelease[] {VllmRelease.V0_11, VllmRelease.V0_4_3}) {
      // --kv-cache-metrics on, so the residency histograms' buckets meet the catalog's too; the
      // second fleet's first node is an MI300X one with AMD's device-metrics-exporter, and its
      // SGLang servers (direct, behind the gateway, the PD pair) run 0.5.11
      Fleet fleet =
          Fleet.create(
              FleetConfig.builder()
                  .legacyRelease(legacy)
                  .kvCacheMetrics(true)
                  .amdNodes(legacy == VllmRelease.V0_4_3 ? 1 : 0)
                  .sglangRelease(
                      legacy == VllmRelease.V0_4_3 ? SglangRelease.V0_5_11 : SglangRelease.V0_5_9)
                  .build(),
              SimulatedFleet.START);
      fleet.advance(Duration.ofMinutes(3));
      for (PodInfo info : fleet.inventory()) {
        String engine =
            info.backend() == Backend.AMDGPU
                ? "amdgpu"
                : info.engine().startsWith("sglang")
                    ? "sglang"
                    : info.engine().startsWith("dcgm") ? "dcgm" : "vllm";
        String release =
            engine.equals("amdgpu")
                ? "1.5"
                : engine.equals("dcgm")
                    ? "4.4"
                    : engine.equals("sglang") ? info.version() : vllmLine(info.version());
        fleet
            .render(info.name())
            .ifPresent(p -> out.add(Arguments.of(info.name(), engine, release, p)));
      }
    }
    return out.build();
  }

  private static String vllmLine(String simulatorVersion) {
    switch (simulatorVersion) {
      case "0.24+":
        return "0.24";
      case "0.4.3":
        return "0.4";
      default:
        return simulatorVersion;
    }
  }

  @ParameterizedTest(name = "{0} ({1} {2})")
  @MethodSource("simulatorPages")
  void everyFamilyOfASimulatedPageIsCatalogued(
      String pod, String engine, String release, String page) throws Exception {
    Map<String, FamilyInfo> families =
        PageFamilies.parse(page.getBytes(StandardCharsets.UTF_8), null);
    assertThat(CatalogCheck.problems(CATALOG, engine, release, families)).isEmpty();
    Detection d = new EngineDetector(CATALOG).detect(families);
    assertThat(d.engine()).isEqualTo(engine);
    assertThat(d.versions().contains(CATALOG.engine(engine).version(release).orElseThrow()))
        .as("%s detected as %s", pod, d.versions())
        .isTrue();
  }

  @Test
  void countersAreCataloguedWithTotalAndHistogramsWithBuckets() {
    for (EngineCatalog e : CATALOG.engines()) {
      for (MetricEntry m : e.metrics()) {
        // the GPU exporters (Go), TGI (Rust metrics-exporter-prometheus) and Triton (its C++
        // metrics API: nv_inference_request_success in the TensorRT-LLM backend README) write
        // plain counter names
        if (m.type() == MetricType.COUNTER
            && !e.gpuExporter()
            && !e.engine().equals("tgi")
            && !e.engine().equals("triton")) {
          assertThat(m.name()).as(m.name()).endsWith("_total");
        }
        assertThat(m.buckets().isEmpty()).as(m.name()).isEqualTo(m.type() != MetricType.HISTOGRAM);
        assertThat(m.cite()).as(m.name()).isNotBlank();
      }
    }
  }

  @Test
  void renamesPointAtCataloguedFamilies() {
    for (EngineCatalog e : CATALOG.engines()) {
      for (MetricEntry m : e.metrics()) {
        for (String other : new String[] {m.history().renamedFrom(), m.history().replacedBy()}) {
          if (other != null && !other.equals("startup_time_seconds")) {
            assertThat(e.entries(other)).as(m.name() + " -> " + other).isNotEmpty();
          }
        }
      }
    }
  }

  /**
   * vLLM's removals and renames as its sources date them (vllm.md §4.2; the PRs named in
   * vllm.yaml): deprecated, hidden (shown again by --show-hidden-metrics-for-version) and removed,
   * and what replaced the family; a blank column is a step the family never had.
   */
  @ParameterizedTest
  @CsvSource({
    "num_requests_swapped, 0.8, 0.9, 0.10, ",
    "cpu_cache_usage_perc, 0.8, 0.9, 0.10, ",
    "cpu_prefix_cache_hit_rate, 0.8, 0.9, 0.10, ",
    "gpu_prefix_cache_hit_rate, 0.8, 0.9, 0.10, prefix_cache_hits_total",
    "time_in_queue_requests, 0.8, 0.9, 0.10, request_queue_time_seconds",
    "model_forward_time_milliseconds, 0.8, 0.9, 0.10, ",
    "model_execute_time_milliseconds, 0.8, 0.9, 0.10, ",
    "gpu_cache_usage_perc, 0.9.2, 0.11, 0.12, kv_cache_usage_perc",
    "gpu_prefix_cache_queries_total, 0.9.2, 0.11, 0.12, prefix_cache_queries_total",
    "gpu_prefix_cache_hits_total, 0.9.2, 0.11, 0.12, prefix_cache_hits_total",
    "time_per_output_token_seconds, 0.11, 0.12, 0.15, inter_token_latency_seconds",
    "avg_prompt_throughput_toks_per_s, , , 0.8, prompt_tokens_total",
    "avg_generation_throughput_toks_per_s, , , 0.8, generation_tokens_total",
    "tokens_total, , , 0.11, ",
    "spec_decode_draft_acceptance_rate, , , 0.11, ",
    "prompt_tokens_recomputed_total, , , 0.19, "
  })
  void vllmRemovalsAndRenamesFollowTheSources(
      String family, String deprecated, String hidden, String removed, String replacedBy) {
    EngineCatalog vllm = CATALOG.engine("vllm");
    List<MetricEntry> es = vllm.entries(family);
    assertThat(es).as(family).hasSize(1);
    MetricEntry m = es.get(0);
    assertThat(name(m.history().deprecated())).as(family + " deprecated").isEqualTo(deprecated);
    assertThat(name(m.history().hidden())).as(family + " hidden").isEqualTo(hidden);
    assertThat(name(m.history().removed())).as(family + " removed").isEqualTo(removed);
    assertThat(m.history().replacedBy()).as(family + " replaced by").isEqualTo(replacedBy);
    if (hidden != null) {
      // hidden is not gone: the family still exists (for the escape hatch) until its removal
      ReleaseLine h = vllm.version(hidden).orElseThrow();
      assertThat(m.existsIn(h)).as(family + " exists while hidden").isTrue();
      assertThat(m.exposedIn(h)).as(family + " not shown while hidden").isFalse();
    }
    assertThat(m.existsIn(vllm.version(removed).orElseThrow())).as(family).isFalse();
  }

  private static String name(ReleaseLine r) {
    return r == null ? null : r.name();
  }

  /** NIM's own counters exist under NIM's spelling only: never as vllm: or ray_vllm: families. */
  @Test
  void aProductsOwnFamiliesHaveNoOtherSpelling() {
    EngineCatalog vllm = CATALOG.engine("vllm");
    NameVariant nim = vllm.spelling("").orElseThrow().variant();
    NameVariant plain = vllm.spelling("vllm:").orElseThrow().variant();
    for (String own : new String[] {"request_failure_total", "num_request_max"}) {
      assertThat(vllm.serves(nim, own)).as(own).isTrue();
      assertThat(vllm.serves(plain, own)).as(own).isFalse();
      assertThat(vllm.ownedElsewhere(plain, own)).as(own).isTrue();
    }
    assertThat(vllm.serves(plain, "request_success_total")).isTrue();
    assertThat(vllm.ownedElsewhere(nim, "request_success_total")).isFalse();
  }

  @Test
  void theAmdExportersEntriesCiteItsSourceAndMapTheSharedGpuSignals() {
    EngineCatalog amd = CATALOG.engine("amdgpu");
    assertThat(amd.metrics()).isNotEmpty();
    for (MetricEntry m : amd.metrics()) {
      assertThat(m.cite()).as(m.name()).contains("afd0fe8");
      // client_golang GaugeVecs: the page types every family gauge, the energy count too
      assertThat(m.declaredType()).as(m.name()).isEqualTo(MetricType.GAUGE);
    }
    assertThat(CATALOG.gpuExporters())
        .extracting(EngineCatalog::engine)
        .containsExactly("dcgm", "amdgpu");
    assertThat(amd.gpuModelLabel()).isEqualTo("card_model");
    assertThat(amd.gpuIndexLabel()).isEqualTo("gpu_id");
    assertThat(CATALOG.engine("dcgm").gpuIndexLabel()).isEqualTo("gpu");
    assertThat(CATALOG.engine("vllm").gpuExporter()).isFalse();
    for (Signal s :
        new Signal[] {
          Signal.GPU_UTIL,
          Signal.GPU_COPY_UTIL,
          Signal.GPU_MEMORY_USED,
          Signal.GPU_ENERGY,
          Signal.GPU_COUNT
        }) {
      assertThat(amd.sources(s)).as(s.key()).isNotEmpty();
    }
    assertThat(amd.entries("gpu_energy_consumed").get(0).type()).isEqualTo(MetricType.COUNTER);
    // micro-joules (the help's "in uJ") to joules; dcgm-exporter's millijoules to joules
    assertThat(amd.sources(Signal.GPU_ENERGY).get(0).scale()).isEqualTo(1e-6);
    assertThat(CATALOG.engine("dcgm").sources(Signal.GPU_ENERGY).get(0).scale()).isEqualTo(1e-3);
    // NVIDIA-only: DCP profiling activity and NVLink have no AMD source
    assertThat(amd.sources(Signal.GPU_TENSOR_ACTIVE)).isEmpty();
    assertThat(amd.sources(Signal.GPU_NVLINK)).isEmpty();
  }

  @Test
  void everyEngineHasTheCoreSignals() {
    for (String engine : new String[] {"vllm", "sglang"}) {
      for (Signal s :
          new Signal[] {
            Signal.REQUESTS_RUNNING, Signal.REQUESTS_WAITING, Signal.KV_USAGE, Signal.TTFT,
            Signal.ITL, Signal.E2E_LATENCY, Signal.PROMPT_TOKENS, Signal.GENERATION_TOKENS,
            Signal.PREFIX_CACHE_HITS, Signal.PREFIX_CACHE_QUERIES, Signal.REQUESTS_FINISHED
          }) {
        assertThat(CATALOG.engine(engine).sources(s)).as(engine + " " + s).isNotEmpty();
      }
    }
    // SGLang's batch-local gauge must never be a source of the hit rate: token counters only
    for (Signal s : new Signal[] {Signal.PREFIX_CACHE_HITS, Signal.PREFIX_CACHE_QUERIES}) {
      assertThat(CATALOG.engine("sglang").sources(s))
          .as(s.toString())
          .isNotEmpty()
          .allSatisfy(src -> assertThat(src.metrics()).doesNotContain("cache_hit_rate"))
          .allSatisfy(
              src ->
                  assertThat(src.metrics())
                      .allSatisfy(
                          m ->
                              assertThat(CATALOG.engine("sglang").entries(m))
                                  .as(m)
                                  .isNotEmpty()
                                  .allSatisfy(
                                      e -> assertThat(e.type()).isEqualTo(MetricType.COUNTER))));
    }
  }

  /** Router and scheduler names: known with their generation, never engine metrics. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // name, component, state (current | deprecated | gone), replaced by
    "vllm:current_qps, production-stack-router, current, ''",
    "vllm:request_latency_seconds_bucket, production-stack-router, current, ''",
    "router_cpu_usage_percent, production-stack-router, current, ''",
    "inference_model_request_total, gaie-epp, gone, inference_objective_request_total",
    "inference_model_request_duration_seconds_bucket, gaie-epp, gone,"
        + " inference_objective_request_duration_seconds",
    "inference_objective_request_error_total, gaie-epp, deprecated, ''",
    "inference_extension_prefix_indexer_hit_ratio_bucket, gaie-epp, deprecated, ''",
    "llm_d_epp_kv_cache_index_lookup_hits_total, llm-d-router, current, ''",
    "llm_d_router_epp_kv_cache_index_lookup_hits_total, llm-d-router, current, ''",
    "kvcache_index_lookup_hits_total, llm-d-kv-cache, deprecated, ''",
    "sgl_router_requests_total, sglang-model-gateway, gone, ''",
    "sgl_router_request_duration_seconds_bucket, sglang-model-gateway, gone, ''",
    "smg_router_requests_total, sglang-model-gateway, current, ''",
    "smg_router_ttft_seconds_count, sglang-model-gateway, current, ''",
    "smg_worker_requests_active, sglang-model-gateway, current, ''",
    "smg_scheduler_queue_depth, sglang-model-gateway, current, ''",
    "smg_pd_ttft_seconds_bucket, sglang-model-gateway, current, ''",
  })
  void routerAndSchedulerNamesAreKnownWithTheirGeneration(
      String name, String component, String state, String replacedBy) {
    assertThat(CATALOG.identifyFamily(name)).as("not an engine metric").isEmpty();
    NonEngineMetric m = CATALOG.nonEngine().lookup(name).orElseThrow();
    assertThat(m.component()).isEqualTo(component);
    assertThat(m.gone() ? "gone" : m.deprecated().isEmpty() ? "current" : "deprecated")
        .isEqualTo(state);
    assertThat(m.replacedBy()).isEqualTo(replacedBy);
  }

  /**
   * The llm-d KV-cache library's names date from its first name, llm-d-kv-cache-manager:
   * pkg/kvcache/metrics/collector.go at 0ac45c66 (#53), 038a91c2 (#160) and e1175f9d (#185).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "kvcache_index_lookup_requests_total, 2025-07-16 (llm-d-kv-cache-manager #53)",
    "kvcache_index_lookup_latency_seconds_bucket, 2025-07-16 (llm-d-kv-cache-manager #53)",
    "kvcache_index_max_pod_hit_count_total, 2025-11-20 (llm-d-kv-cache-manager #160)",
    "kvcache_tokenization_tokenized_tokens_total, 2025-11-27 (llm-d-kv-cache-manager #185)",
  })
  void kvCacheLibraryNamesDateFromTheCommitThatAddedThem(String name, String since) {
    NonEngineMetric m = CATALOG.nonEngine().lookup(name).orElseThrow();
    assertThat(m.component()).isEqualTo("llm-d-kv-cache");
    assertThat(m.since()).isEqualTo(since);
  }

  /** A name of #53's branch that was merged under another name is no release's. */
  @Test
  void theKvCacheManagersUnmergedLookupKeyCounterIsUnknown() {
    assertThat(CATALOG.nonEngine().lookup("kvcache_index_lookup_key_total")).isEmpty();
  }

  /**
   * The production-stack router's page shares the engine's {@code vllm:} prefix (its own gauges,
   * per backend {@code server}): the router is not a vLLM engine. Families from its
   * metrics_service/__init__.py and routers/metrics_router.py (routers.yaml).
   */
  @Test
  void theProductionStackRoutersPageIsNotAVllmEngine() {
    Set<String> routerPage =
        Set.of(
            "vllm:num_requests_running",
            "vllm:num_requests_waiting",
            "vllm:current_qps",
            "vllm:avg_decoding_length",
            "vllm:num_prefill_requests",
            "vllm:num_decoding_requests",
            "vllm:healthy_pods_total",
            "vllm:avg_latency",
            "vllm:avg_itl",
            "vllm:num_incoming_requests_total",
            "vllm:request_latency_seconds");
    Detection d = new EngineDetector(CATALOG).detect(routerPage);
    assertThat(d.engine()).as("%s", d).isNotEqualTo("vllm");
  }

  /** The simulator's production-stack router page, parsed as a scrape would, is the router too. */
  @Test
  void theSimulatedProductionStackRouterPageIsNotAVllmEngine() throws Exception {
    Fleet fleet = Fleet.create(FleetConfig.builder().build(), SimulatedFleet.START);
    fleet.advance(Duration.ofMinutes(2));
    List<VllmPod> pods =
        fleet.pods().stream().filter(VllmPod.class::isInstance).map(VllmPod.class::cast).toList();
    String page =
        new ProductionStackRouter(SimulatedFleet.START / 1e3).render(pods, fleet.nowMillis() / 1e3);
    Map<String, FamilyInfo> families =
        PageFamilies.parse(page.getBytes(StandardCharsets.UTF_8), null);
    assertThat(families).containsKeys("vllm:current_qps", "vllm:num_requests_running");
    Detection d = new EngineDetector(CATALOG).detect(families);
    assertThat(d.engine()).as("%s", d).isNotEqualTo("vllm");
  }

  /**
   * The simulator's Dynamo frontend page ({@code --router dynamo}), parsed as a scrape would: every
   * family, label and bucket bound is engine dynamo's of the 0014908a line, and the page is the
   * router in front (routers.yaml's signature), not an engine.
   */
  @Test
  void theSimulatedDynamoFrontendPageIsCataloguedAndIsTheRouter() throws Exception {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder().router(dev.infermon.simulator.RouterKind.DYNAMO).build(),
            SimulatedFleet.START);
    fleet.advance(Duration.ofMinutes(3));
    String page = fleet.render("dynamo-frontend-0").orElseThrow();
    Map<String, FamilyInfo> families =
        PageFamilies.parse(page.getBytes(StandardCharsets.UTF_8), null);
    assertThat(families)
        .containsKeys(
            "dynamo_frontend_requests_total",
            "dynamo_frontend_active_requests",
            "dynamo_frontend_time_to_first_token_seconds",
            "dynamo_frontend_request_duration_seconds");
    assertThat(CatalogCheck.problems(CATALOG, "dynamo", "0014908a", families)).isEmpty();
    assertThat(new EngineDetector(CATALOG).detect(families).engine()).isEqualTo(Detection.UNKNOWN);
    assertThat(CATALOG.nonEngine().router(families.keySet()))
        .hasValueSatisfying(r -> assertThat(r.backend()).isEqualTo("dynamo"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    // a scheduler-owned name no release had, and the name that measures it
    "llm_d_router_epp_index_lookup_hits_total, llm_d_epp_kv_cache_index_lookup_hits_total",
    "llm_d_router_epp_tokenization_tokenized_tokens_total, kvcache_tokenization_tokenized_tokens_total",
    "llm_d_epp_prefix_indexer_hit_ratio_total, ''",
  })
  void unknownSchedulerNamesFindTheSameQuantityUnderAnotherGeneration(String name, String same) {
    assertThat(CATALOG.nonEngine().lookup(name)).isEmpty();
    assertThat(CATALOG.nonEngine().judges(name)).isTrue();
    List<NonEngineMetric> found = CATALOG.nonEngine().sameQuantity(name);
    if (same.isEmpty()) {
      assertThat(found).isEmpty();
    } else {
      assertThat(found).isNotEmpty();
      assertThat(found.get(0).name()).isEqualTo(same);
    }
  }

  private static final String HEAD =
      "engine: x\ntitle: X\nversions: ['1']\nname_variants: [{prefix: 'x:', cite: c}]\n";

  static Stream<Arguments> badData() {
    String gauge = "metrics: [{name: a, type: gauge, unit: u, labels: [], since: '1', cite: c}]\n";
    return Stream.of(
        Arguments.of(
            gauge + "not_exposed: {kv_capacity_litres: {exposes: e, cite: c}}",
            "not_exposed.kv_capacity_litres: unknown signal: \"kv_capacity_litres\""),
        Arguments.of(
            gauge
                + "signals: {kv_capacity_blocks: [{metric: a}]}\n"
                + "not_exposed: {kv_capacity_blocks: {exposes: e, cite: c}}",
            "not_exposed.kv_capacity_blocks: the signal has sources"),
        Arguments.of(
            gauge + "not_exposed: {kv_capacity_tokens: {exposes: e}}",
            "not_exposed.kv_capacity_tokens"),
        Arguments.of(
            "metrics: [{name: a, type: counter, unit: u, labels: [], since: '1', cite: c}]",
            "a counter is exposed with \"_total\""),
        Arguments.of(
            "metrics: [{name: a, type: gauge, unit: u, labels: [], since: '2', cite: c}]",
            "unknown release line \"2\""),
        Arguments.of(
            "metrics: [{name: a, type: histogram, unit: u, labels: [], since: '1', cite: c}]",
            "buckets are given for histograms"),
        Arguments.of(
            "metrics: [{name: a, type: gauge, unit: u, labels: [], since: '1'}]",
            "cites its source"),
        Arguments.of("metrics: [{name: a, typo: gauge}]", "unknown key \"typo\""),
        Arguments.of("metrics: []\nsignals: {ttft: [{metric: nope}]}", "unknown metric \"nope\""),
        Arguments.of(
            "metrics: [{name: a, type: gauge, unit: u, labels: [], since: '1', cite: c,"
                + " avoid: {why: w, use: [{expr: 'rate(x[5m])', metrics: [nope]}]}}]",
            "the replacement names unknown metric \"nope\""),
        Arguments.of(
            "metrics: [{name: a, type: gauge, unit: u, labels: [], since: '1', cite: c,"
                + " avoid: {use: []}}]",
            "why is required"),
        Arguments.of(
            "metrics: [{name: a, type: gauge, unit: u, labels: [], since: '1', cite: c}]\n"
                + "signals: {kv_capacity_tokens: [{metric: a, value_labels: num_blocks}]}",
            "signals.kv_capacity_tokens[0].value_labels: a list of label names is required"),
        Arguments.of("created_series: {cite: c}\nmetrics: []", "since is required"),
        Arguments.of(
            gauge + "absent_on: [{engine: y, why: w, cite: c}]", "absent_on needs runs_in"),
        Arguments.of(
            gauge + "runs_in: y\nabsent_on: [{engine: y, product: P, why: w, cite: c}]",
            "absent_on[0]: exactly one of engine and product is required"),
        Arguments.of(gauge + "runs_in: y\nabsent_on: [{engine: z, why: w}]", "absent_on[0]"),
        Arguments.of(
            gauge
                + "runs_in: y\nabsent_on: [{engine: z, why: w, cite: c},"
                + " {engine: z, why: v, cite: c}]",
            "absent_on[1]: \"z\" is listed twice"));
  }

  /** A product's subset of families (NVIDIA NIM's of vLLM) names catalog entries and a product. */
  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{prefix: '', product: P, serves: [nope], cite: c} | unknown metric \"nope\"",
        "{prefix: '', serves: [a], cite: c}                | lists the families it serves but names no product",
        "{prefix: '', renames: {a: b}, cite: c}            | renames families but names no product",
        "{prefix: '', product: P, serves: [a], renames: {nope: b}, cite: c} | renames \"nope\", which it does not serve",
        "{prefix: '', product: P, renames: {nope: b}, cite: c} | unknown metric \"nope\"",
        "{prefix: '', product: P, renames: {a: ''}, cite: c} | renames \"a\" to nothing",
        "{prefix: '', product: P, serves: [a], own: [b], cite: c} | owns \"b\", which it does not serve",
        "{prefix: '', required_labels: [t], releases: ['2'], cite: c} | name_variants \"\": unknown release line \"2\"",
      })
  void aProductsSubsetIsChecked(String variant, String message) {
    String yaml =
        "engine: x\ntitle: X\nversions: ['1']\nname_variants: [{prefix: 'x:', cite: c}, "
            + variant
            + "]\nmetrics: [{name: a, type: gauge, unit: u, labels: [], since: '1', cite: c}]\n";
    assertThatThrownBy(
            () ->
                CatalogLoader.load(
                    "bad.yaml", new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(CatalogException.class)
        .hasMessageStartingWith("bad.yaml")
        .hasMessageContaining(message);
  }

  /**
   * TensorRT-LLM's unprefixed spelling is 1.0's ({@code releases}): it serves the five families 1.0
   * had, not those added under {@code trtllm_} since, so no selector names an unprefixed {@code
   * num_requests_running} for TensorRT-LLM and NIM's carries no {@code engine_type=""}.
   */
  @Test
  void trtllmUnprefixedSpellingServesOnlyTheFamiliesOf10() {
    Catalog c = Catalog.builtIn();
    EngineCatalog trt = c.engine("trtllm");
    NameVariant plain = trt.spelling("").orElseThrow().variant();
    List<String> served =
        trt.metrics().stream()
            .map(MetricEntry::name)
            .distinct()
            .filter(n -> trt.serves(plain, n))
            .toList();
    assertThat(served)
        .containsExactlyInAnyOrder(
            "request_success_total",
            "e2e_request_latency_seconds",
            "time_to_first_token_seconds",
            "time_per_output_token_seconds",
            "request_queue_time_seconds");
    EngineCatalog vllm = c.engine("vllm");
    NameVariant nim = vllm.spelling("").orElseThrow().variant();
    assertThat(c.matchersTellingApart(vllm, nim, "time_to_first_token_seconds"))
        .containsExactly("engine_type=\"\"");
    assertThat(c.matchersTellingApart(vllm, nim, "num_requests_running")).isEmpty();
    assertThat(c.matchersTellingApart(trt, plain, "time_to_first_token_seconds"))
        .containsExactly("engine_type!=\"\"");
  }

  @Test
  void nimServesOnlyItsSubsetOfVllm() {
    EngineCatalog vllm = Catalog.builtIn().engine("vllm");
    NameVariant nim =
        vllm.variants().stream().filter(v -> v.prefix().isEmpty()).findFirst().orElseThrow();
    assertThat(nim.product()).isEqualTo("NVIDIA NIM");
    assertThat(nim.serves("time_to_first_token_seconds")).isTrue();
    assertThat(nim.serves("num_preemptions_total")).isFalse();
    assertThat(vllm.variants().get(0).serves("num_preemptions_total")).isTrue();
  }

  /**
   * NIM's request_finish_total is vLLM's request_success_total (finished requests by reason); its
   * own request_success_total (successes, model_name only) is another family the catalog does not
   * list (capture nim-llm-2024-10-30, lines 151-156).
   */
  @Test
  void nimServesVllmsFinishedRequestsUnderItsOwnName() {
    EngineCatalog vllm = Catalog.builtIn().engine("vllm");
    Spelling nim = vllm.spelling("").orElseThrow();
    MetricEntry finished = vllm.entries("request_success_total").get(0);
    assertThat(nim.render(finished)).isEqualTo("request_finish_total");
    assertThat(vllm.spelling("vllm:").orElseThrow().render(finished))
        .isEqualTo("vllm:request_success_total");
    assertThat(vllm.identifyFamily("request_finish_total").orElseThrow().entries())
        .containsExactlyElementsOf(vllm.entries("request_success_total"));
    assertThat(vllm.identifyFamily("request_success_total")).isEmpty();
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badData")
  void badDataIsRefusedWithItsPlace(String yaml, String message) {
    assertThatThrownBy(
            () ->
                CatalogLoader.load(
                    "bad.yaml",
                    new ByteArrayInputStream((HEAD + yaml).getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(CatalogException.class)
        .hasMessageStartingWith("bad.yaml")
        .hasMessageContaining(message);
  }
}
