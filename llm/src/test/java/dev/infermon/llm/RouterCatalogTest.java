package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.CatalogException;
import dev.infermon.llm.catalog.NonEngineCatalog;
import dev.infermon.llm.catalog.Router;
import dev.infermon.llm.catalog.RouterSource;
import dev.infermon.llm.signals.RouterSignal;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The router level's data in routers.yaml: each router is told by its signature families, its
 * sources name listed families of the right type, and bad data is refused with its place.
 */
class RouterCatalogTest {
  private static final NonEngineCatalog ROUTERS = Catalog.builtIn().nonEngine();

  @ParameterizedTest
  @CsvSource({
    "vllm:current_qps, production-stack-router",
    "llm_d_epp_scheduler_attempts_total, llm-d-router",
    "inference_objective_request_total, llm-d-router",
    "smg_worker_requests_active, sglang-model-gateway",
  })
  void aRouterIsToldByItsSignature(String family, String component) {
    assertThat(ROUTERS.router(Set.of(family)).map(Router::component)).contains(component);
  }

  @Test
  void anEnginePageIsNoRouter() {
    // vLLM's own page shares vllm:num_requests_running with the production-stack router
    assertThat(ROUTERS.router(Set.of("vllm:num_requests_running", "vllm:kv_cache_usage_perc")))
        .isEmpty();
  }

  @Test
  void llmdReadsTheCurrentGenerationFirstWithEachGenerationsEndpointLabel() {
    Router llmd =
        ROUTERS.routers().stream()
            .filter(r -> r.backend().equals("llm-d"))
            .findFirst()
            .orElseThrow();
    List<RouterSource> routed = llmd.sources(RouterSignal.ROUTED);
    assertThat(routed)
        .extracting(RouterSource::family)
        .containsExactly(
            "llm_d_epp_scheduler_attempts_total", "inference_extension_scheduler_attempts_total");
    assertThat(routed)
        .extracting(s -> s.endpoint().label())
        .containsExactly("endpoint_name", "pod_name");
    assertThat(routed.get(0).match()).containsEntry("status", "success");
    assertThat(llmd.sources(RouterSignal.IN_FLIGHT)).isEmpty();
  }

  @Test
  void productionStackShadowsTheEnginesGaugesItCopies() {
    Router ps = ROUTERS.routers().get(0);
    assertThat(ps.backend()).isEqualTo("production-stack");
    assertThat(ps.shadows()).contains("vllm:num_requests_running");
    assertThat(ps.shadowLabel()).isEqualTo("server");
    assertThat(ps.sources(RouterSignal.ROUTED).get(0).endpoint().isInstance()).isTrue();
  }

  private static final String HEAD =
      "not_an_engine: true\n"
          + "components:\n  r: {title: R, cite: \"x\"}\n"
          + "families:\n  - component: r\n    counters: [a_total]\n    gauges: [g]\n"
          + "routers:\n  - {component: r, backend: r, model_label: model, ";

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "signature: [nope]} | routers[0].signature: nope is not in families (cite it there first)",
        "signature: [g], sources: [{signal: routed, counter: g}]}"
            + " | routers[0].sources[0]: g is a GAUGE in families, not a COUNTER",
        "signature: [g], sources: [{signal: fast, gauge: g}]}"
            + " | routers[0].sources[0]: signal: unknown router signal: \"fast\" (one of routed,"
            + " in_flight, queue, decisions, latency, ttft)",
        "signature: [g], sources: [{signal: queue, gauge: g, endpoint: {pod: p, instance: i}}]}"
            + " | routers[0].sources[0].endpoint: exactly one of pod, instance",
        "signature: [g], sources: [{signal: queue, gauge: g, wat: 1}]}"
            + " | routers[0].sources[0]: unknown key \"wat\"",
        "signature: [g], shadows: [g]} | routers[0]: router r shadows need a shadow_label",
      })
  void badRouterDataIsRefusedWithItsPlace(String tail, String message) {
    String yaml = HEAD + tail + "\n";
    assertThatThrownBy(
            () ->
                NonEngineCatalog.load(
                    "routers.yaml",
                    new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(CatalogException.class)
        .hasMessage("routers.yaml: " + message.strip());
  }
}
