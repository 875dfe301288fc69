package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.inventory.Detection;
import dev.infermon.llm.inventory.EngineDetector;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.llm.inventory.PageFamilies;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.RouterKind;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The simulator's NVIDIA Dynamo workers (the pods behind {@code --router dynamo}, whose page is the
 * worker's system server page: dynamo_component_* then the engine's families) as infermon reads
 * them: the page parses, detection names its engine and the Dynamo worker ({@code DYN_SYSTEM_PORT}
 * among its features, its dynamo_component_* families known, none unknown), and the engine panels
 * read the engine's families on it.
 */
class DynamoWorkerPageTest {
  private static final Catalog CATALOG = Catalog.builtIn();

  private static final FleetConfig BEHIND_THE_FRONTEND =
      FleetConfig.builder()
          .vllmPods(2)
          .legacyVllmPods(0)
          .dataParallelPods(0)
          .sglangPods(1)
          .sglangGatewayPods(0)
          .prefillDecode(false)
          .router(RouterKind.DYNAMO)
          .build();

  @Test
  void aWorkersPageIsItsEnginesAndTheDynamoWorkers() throws Exception {
    SimulatedFleet f = new SimulatedFleet(BEHIND_THE_FRONTEND, false).run(Duration.ofMinutes(3));
    int workers = 0;
    for (InferencePod pod : f.fleet.pods()) {
      String page = f.fleet.render(pod.info().name()).orElseThrow();
      Map<String, FamilyInfo> families =
          PageFamilies.parse(page.getBytes(StandardCharsets.UTF_8), null);
      assertThat(families).containsKeys("dynamo_component_requests_total");
      Detection d = new EngineDetector(CATALOG).detect(families);
      assertThat(d.engine()).as(pod.info().name()).isEqualTo(pod.info().engine());
      assertThat(d.features()).as("%s", d).contains("DYN_SYSTEM_PORT");
      assertThat(d.unknownFamilies()).isEmpty();
      for (String family : families.keySet()) {
        if (family.startsWith("dynamo_")) {
          assertThat(CATALOG.identifyFamily(family)).as(family).isPresent();
        }
      }
      workers++;
    }
    assertThat(workers).isEqualTo(3);
  }

  @Test
  void theEnginePanelsReadTheWorkersEngineFamilies() {
    SimulatedFleet f = new SimulatedFleet(BEHIND_THE_FRONTEND, false).run(Duration.ofMinutes(10));
    DashboardService service = new DashboardService(QueryStack.of(f.backend), CATALOG);
    long now = f.now();
    TreeSet<String> models = new TreeSet<>();
    f.fleet.pods().forEach(p -> models.add(p.info().model()));
    for (String panel : List.of("model.qps", "model.ttft", "model.tokens")) {
      PanelResult p =
          service
              .render(
                  new DashboardRequest(
                      Filters.NONE, 0.95, now - 60_000, now, 15_000, "5m", List.of(panel)))
              .get(0);
      assertThat(p.status()).as(panel + " " + p.reasons()).isEqualTo(PanelResult.Status.OK);
      TreeSet<String> seen = new TreeSet<>();
      p.queries().get(0).series().forEach(s -> seen.add(s.labels().get("model_name")));
      assertThat(seen).as(panel).containsAll(models);
    }
  }
}
