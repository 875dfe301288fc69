package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.vllm.VllmRelease;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A simulated mixed fleet where each engine serves its own model (vLLM 0.4.3, V0, and SGLang): a
 * model-level panel's reasons are about the engines that serve the models in scope, so filtering on
 * SGLang's model leaves no vLLM reason, and the other way round.
 */
class MixedFleetModelsTest {
  private static DashboardService service;
  private static long now;
  private static String vllmModel;
  private static String sglangModel;

  @BeforeAll
  static void run() {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(0)
            .legacyVllmPods(1)
            .legacyRelease(VllmRelease.V0_4_3)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-32B-Instruct"))
            .smProfilingFields(false)
            .build();
    SimulatedFleet f = new SimulatedFleet(config, false).run(Duration.ofMinutes(8));
    now = f.now();
    service = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
    vllmModel = model("vllm");
    sglangModel = model("sglang");
    assertThat(vllmModel).as("each engine serves its own model").isNotEqualTo(sglangModel);
  }

  private static String model(String engine) {
    TargetInventory t =
        service.inventory(now).targets().stream()
            .filter(x -> x.engine().equals(engine))
            .findFirst()
            .orElseThrow();
    assertThat(t.models()).as(engine + "'s models, read from its series").hasSize(1);
    return t.models().iterator().next();
  }

  @ParameterizedTest(name = "{0} model={1}: {2} {3} {4}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # panel                   | model  | status  | reason kind | engine
          model.prefix_cache_hit_rate |      | PARTIAL | NOT_EXPOSED | vllm
          model.prefix_cache_hit_rate | sglang | OK    |             |
          model.prefix_cache_hit_rate | vllm | EMPTY   | NOT_EXPOSED | vllm
          model.success_rate        |        | PARTIAL | NOT_EXPOSED | vllm
          model.success_rate        | sglang | OK      |             |
          model.qps                 |        | OK      |             |
          model.qps                 | vllm   | OK      |             |
          """)
  void reasonsAreAboutTheEnginesServingTheModels(
      String panel, String model, String status, String kind, String engine) {
    Filters filters =
        model == null
            ? Filters.NONE
            : Filters.of(Map.of("model_name", model.equals("vllm") ? vllmModel : sglangModel));
    PanelResult p =
        service
            .render(
                new DashboardRequest(
                    filters, 0.95, now - 120_000, now, 15_000, "5m", List.of(panel)))
            .get(0);
    assertThat(p.status())
        .as(panel + " " + p.reasons())
        .isEqualTo(PanelResult.Status.valueOf(status));
    if (kind == null) {
      assertThat(p.reasons()).isEmpty();
    } else {
      assertThat(p.reasons())
          .as(panel)
          .anySatisfy(
              r -> {
                assertThat(r.kind()).isEqualTo(EmptyReason.Kind.valueOf(kind));
                assertThat(r.engine()).isEqualTo(engine);
              })
          .allSatisfy(r -> assertThat(r.engine()).isIn(engine, "dcgm"));
    }
  }
}
