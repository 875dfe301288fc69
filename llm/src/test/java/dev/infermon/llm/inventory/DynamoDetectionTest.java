package dev.infermon.llm.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.BucketSpec;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.ReleaseLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NVIDIA Dynamo's pages as the inventory tells them: the frontend's page is the router in front
 * (its families catalogued as Dynamo's, in the two lines of the tree the catalog read), a worker's
 * page, which re-exports its engine's families beside dynamo_component_*, stays its engine's, and
 * the catalog's bucket bounds are what Dynamo's generate_log_buckets makes from its defaults.
 */
class DynamoDetectionTest {
  static final Catalog CATALOG = Catalog.builtIn();
  static final EngineDetector DETECTOR = new EngineDetector(CATALOG);

  static final String FRONTEND =
      "dynamo_frontend_requests_total dynamo_frontend_inflight_requests"
          + " dynamo_frontend_queued_requests dynamo_frontend_disconnected_clients"
          + " dynamo_frontend_request_duration_seconds dynamo_frontend_input_sequence_tokens"
          + " dynamo_frontend_output_sequence_tokens dynamo_frontend_output_tokens_total"
          + " dynamo_frontend_time_to_first_token_seconds"
          + " dynamo_frontend_inter_token_latency_seconds";

  /**
   * The frontend's page is a router's (routers.yaml's dynamo-frontend signature): its engine is
   * unknown, so no engine panel or reason counts it, while every name on it is engine dynamo's in
   * the catalog (lint and the catalog's lines know them).
   */
  @Test
  void theFrontendsPageIsTheRouterInFrontNotAnEngine() {
    Set<String> families = SpellingDetectionTest.families(FRONTEND);
    Detection d = DETECTOR.detect(SpellingDetectionTest.families(FRONTEND));
    assertThat(d.engine()).isEqualTo(Detection.UNKNOWN);
    assertThat(CATALOG.nonEngine().router(families))
        .hasValueSatisfying(r -> assertThat(r.title()).isEqualTo("NVIDIA Dynamo frontend"));
    for (String f : families) {
      assertThat(CATALOG.identifyFamily(f)).as(f).isPresent();
    }
  }

  @Test
  void activeRequestsExistsInTheNewerLineOnly() {
    EngineCatalog dynamo = CATALOG.engine("dynamo");
    ReleaseLine older = dynamo.version("04070c75").orElseThrow();
    ReleaseLine newer = dynamo.version("0014908a").orElseThrow();
    assertThat(dynamo.entry("frontend_active_requests", newer)).isPresent();
    assertThat(dynamo.entry("frontend_active_requests", older)).isEmpty();
    assertThat(dynamo.entry("frontend_inflight_requests", older)).isPresent();
  }

  /**
   * The four kvstats gauges of PR #2704 (2025-08-29) are gone from 04070c75, whose kvstats module
   * has only TOTAL_BLOCKS and GPU_CACHE_USAGE_PERCENT without the kvstats_ infix; the two that kept
   * their meaning name their successors, the other two none.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "-",
      value = {
        "component_kvstats_active_blocks, -",
        "component_kvstats_total_blocks, component_total_blocks",
        "component_kvstats_gpu_cache_usage_percent, component_gpu_cache_usage_percent",
        "component_kvstats_gpu_prefix_cache_hit_rate, -"
      })
  void theKvstatsGaugesLivedFromPr2704To04070c75(String family, String successor) {
    EngineCatalog dynamo = CATALOG.engine("dynamo");
    ReleaseLine pr2704 = dynamo.version("pr2704").orElseThrow();
    ReleaseLine pr2176 = dynamo.version("pr2176").orElseThrow();
    ReleaseLine current = dynamo.version("04070c75").orElseThrow();
    assertThat(dynamo.entry(family, pr2704)).isPresent();
    assertThat(dynamo.entry(family, pr2176)).isEmpty();
    assertThat(dynamo.entry(family, current)).isEmpty();
    MetricEntry m = dynamo.entries(family).get(0);
    assertThat(m.history().removed()).isEqualTo(current);
    assertThat(m.history().replacedBy()).isEqualTo(successor);
    if (successor != null) {
      assertThat(dynamo.entry(successor, current)).isPresent();
      assertThat(dynamo.entry(successor, pr2704)).isEmpty();
    }
  }

  /** #2176 (2025-07-30) renamed nv_llm_http_service_* to dynamo_frontend_*: the seven it named. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "frontend_requests_total",
    "frontend_inflight_requests",
    "frontend_request_duration_seconds",
    "frontend_input_sequence_tokens",
    "frontend_output_sequence_tokens",
    "frontend_time_to_first_token_seconds",
    "frontend_inter_token_latency_seconds"
  })
  void theFrontendsFirstFamiliesDateFromPr2176(String family) {
    EngineCatalog dynamo = CATALOG.engine("dynamo");
    assertThat(dynamo.entries(family).get(0).since())
        .isEqualTo(dynamo.version("pr2176").orElseThrow());
  }

  @Test
  void aNameDynamoNeverHadIsNotCatalogued() {
    assertThat(CATALOG.identifyFamily("dynamo_frontend_ttft_seconds")).isEmpty();
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          vllm:num_requests_running vllm:num_requests_waiting vllm:kv_cache_usage_perc vllm:prompt_tokens_total vllm:generation_tokens_total | vllm
          sglang:num_running_reqs sglang:num_queue_reqs sglang:token_usage sglang:prompt_tokens_total sglang:generation_tokens_total | sglang
          """)
  void aWorkersPageStaysItsEngines(String engineFamilies, String engine) {
    String component =
        " dynamo_component_requests_total dynamo_component_inflight_requests"
            + " dynamo_component_request_duration_seconds dynamo_component_errors_total";
    Detection d = DETECTOR.detect(SpellingDetectionTest.families(engineFamilies + component));
    assertThat(d.engine()).isEqualTo(engine);
    assertThat(d.unknownFamilies()).isEmpty();
    // and Dynamo's own names on it are known, not invented
    for (String f : component.trim().split(" ")) {
      assertThat(CATALOG.identifyFamily(f)).as(f).isPresent();
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // family, DYN_METRICS_* defaults (min, max, count) from metrics.rs @ 0014908a
    "frontend_time_to_first_token_seconds, 0.001, 480, 18",
    "frontend_inter_token_latency_seconds, 0.001, 2, 13",
    "frontend_request_duration_seconds, 1, 512, 10",
    "frontend_input_sequence_tokens, 50, 128000, 12",
    "frontend_output_sequence_tokens, 50, 32000, 10",
    "frontend_cached_tokens, 50, 128000, 12",
  })
  void bucketBoundsAreDynamosLogBuckets(String family, double min, double max, int count) {
    EngineCatalog dynamo = CATALOG.engine("dynamo");
    ReleaseLine v = dynamo.version("0014908a").orElseThrow();
    MetricEntry e = dynamo.entry(family, v).orElseThrow();
    List<BucketSpec> specs = e.bucketsIn(v);
    assertThat(specs).hasSize(1);
    assertThat(specs.get(0).matches(logBuckets(min, max, count)))
        .as(specs.get(0).toString())
        .isTrue();
    // a bound list off by one rounding is refused, so the check can fail
    List<Double> off = new ArrayList<>(logBuckets(min, max, count));
    off.set(1, off.get(1) * 1.1);
    assertThat(specs.get(0).matches(off)).isFalse();
  }

  /** Dynamo's generate_log_buckets, rounding half away from zero as Rust's f64::round does. */
  static List<Double> logBuckets(double min, double max, int count) {
    List<Double> out = new ArrayList<>(List.of(0.0));
    for (int i = 1; i < count; i++) {
      double v = Math.exp(Math.log(min) + (Math.log(max) - Math.log(min)) * i / (count - 1));
      double scale = Math.pow(10, 2 - 1 - Math.floor(Math.log10(v)));
      double r = Math.signum(v * scale) * Math.floor(Math.abs(v * scale) + 0.5) / scale;
      if (r != out.get(out.size() - 1)) {
        out.add(r);
      }
    }
    return out;
  }

  @Test
  void theFrontendFeedsTheRouterLevelAndNoEngineSignal() {
    // its families describe the workers' requests again: as engine signals they would be counted
    // twice; the router level reads them (routers.yaml)
    assertThat(CATALOG.engine("dynamo").signals()).isEmpty();
    assertThat(Set.copyOf(Catalog.ENGINES)).contains("dynamo");
    assertThat(CATALOG.nonEngine().routers())
        .anySatisfy(r -> assertThat(r.backend()).isEqualTo("dynamo"));
  }

  /**
   * Before ai-dynamo/dynamo#2176 (reviewed 2025-07-30) the frontend's families were
   * nv_llm_http_service_*: such a page is the same router, an older generation, whose in-flight,
   * latency and TTFT the router level reads where the newer names are absent.
   */
  @Test
  void theOlderFrontendsPageIsTheSameRouterAndItsNamesAreRead() {
    Set<String> families =
        SpellingDetectionTest.families(
            "nv_llm_http_service_requests_total nv_llm_http_service_inflight_requests"
                + " nv_llm_http_service_request_duration_seconds"
                + " nv_llm_http_service_time_to_first_token_seconds");
    assertThat(DETECTOR.detect(families).engine()).isEqualTo(Detection.UNKNOWN);
    var router = CATALOG.nonEngine().router(families).orElseThrow();
    assertThat(router.backend()).isEqualTo("dynamo");
    List<String> read = new ArrayList<>();
    for (var s : dev.infermon.llm.signals.RouterSignal.values()) {
      router.sources(s).forEach(src -> read.add(s + " " + src.family()));
    }
    assertThat(read)
        .contains(
            "IN_FLIGHT nv_llm_http_service_inflight_requests",
            "LATENCY nv_llm_http_service_request_duration_seconds",
            "TTFT nv_llm_http_service_time_to_first_token_seconds");
  }
}
