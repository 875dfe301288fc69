package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.RouterKind;
import dev.infermon.simulator.testing.FleetScrape;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The prefill/decode view over an NVIDIA Dynamo deployment labelled as inference discovery labels
 * it (DynamoPortsTest): the workers carry no {@code *-pd} backend, the operator stamping none that
 * names their engine (a worker's {@code backend} is the user's {@code inference_backend} label, or
 * none), and their role is the operator's component type ({@code prefill}, {@code decode}); the
 * frontend is backend {@code dynamo}, role {@code frontend}. The view selects the pairs by role, so
 * it shows them, and its router TTFT is the frontend's.
 */
class DynamoDeploymentPdViewTest {
  private static final Duration RUN = Duration.ofMinutes(10);

  private static final FleetConfig PAIRS_BEHIND_THE_FRONTEND =
      FleetConfig.builder()
          .vllmPods(0)
          .legacyVllmPods(0)
          .dataParallelPods(0)
          .sglangPods(0)
          .sglangGatewayPods(0)
          .prefillDecode(true)
          .router(RouterKind.DYNAMO)
          .build();

  /**
   * The target labels of a Dynamo graph's pods: the vLLM pair's workers labelled {@code
   * inference_backend: vllm} by the user, the SGLang pair's not labelled at all (no backend); the
   * workers on the system port (9090), the frontend on http (8000); every pod in job inference.
   */
  static Map<String, String> asDiscovered(PodInfo info) {
    Map<String, String> t = FleetScrape.targetLabels(info);
    if (info.backend() == Backend.VLLM_PD) {
      t.put("backend", "vllm");
    } else if (info.backend() == Backend.SGLANG_PD) {
      t.remove("backend");
    } else if (info.backend() == Backend.DYNAMO) {
      t.put("role", "frontend");
    } else {
      return t;
    }
    t.put("job", "inference");
    t.put("instance", info.name() + (info.backend() == Backend.DYNAMO ? ":8000" : ":9090"));
    return t;
  }

  private static PanelResult render(SimulatedFleet f, String panel) {
    DashboardService service = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
    long now = f.now();
    return service
        .render(
            new DashboardRequest(
                Filters.NONE, 0.95, now - 60_000, now, 15_000, "5m", List.of(panel)))
        .get(0);
  }

  /** The last value of each series of the panel's first query, by {@code label}. */
  private static Map<String, Double> last(PanelResult p, String label) {
    Map<String, Double> out = new TreeMap<>();
    for (PanelResult.SeriesData s : p.queries().get(0).series()) {
      double[] v = s.values();
      assertThat(out.put(s.labels().get(label), v[v.length - 1])).as(label + " once").isNull();
    }
    return out;
  }

  @Test
  void theRouterTtftOfTheViewIsTheFrontendsForTheWorkersItFronts() {
    SimulatedFleet f =
        new SimulatedFleet(
                PAIRS_BEHIND_THE_FRONTEND, false, DynamoDeploymentPdViewTest::asDiscovered)
            .run(RUN);
    PanelResult p = render(f, "pd.ttft_router");
    assertThat(p.status()).as(p.reasons().toString()).isEqualTo(PanelResult.Status.OK);
    Map<String, Double> ttft = last(p, "model_name");
    TreeSet<String> models = new TreeSet<>();
    for (InferencePod pod : f.fleet.pods()) {
      models.add(pod.info().model());
    }
    assertThat(ttft.keySet()).containsExactlyElementsOf(models);
    long now = f.now();
    for (String model : models) {
      List<Double> truth =
          new ArrayList<>(f.fleet.routerTtfts(RouterKind.DYNAMO, model, now - 300_000, now));
      assertThat(truth).as(model).hasSizeGreaterThan(20);
      Collections.sort(truth);
      double p95 = truth.get((int) Math.ceil(0.95 * truth.size()) - 1);
      // the frontend's buckets are log-spaced about x2.1 apart: the estimate is within a bucket
      assertThat(ttft.get(model)).as(model + " p95 " + p95).isBetween(p95 / 2.2, p95 * 2.2);
    }
  }

  @Test
  void theViewShowsTheWorkersByTheirComponentRole() {
    SimulatedFleet f =
        new SimulatedFleet(
                PAIRS_BEHIND_THE_FRONTEND, false, DynamoDeploymentPdViewTest::asDiscovered)
            .run(RUN);
    PanelResult user = render(f, "pd.ttft_user");
    assertThat(user.status()).as(user.reasons().toString()).isEqualTo(PanelResult.Status.OK);
    PanelResult running = render(f, "pd.running_by_role");
    assertThat(running.status()).isEqualTo(PanelResult.Status.OK);
    TreeSet<String> roles = new TreeSet<>();
    running.queries().get(0).series().forEach(s -> roles.add(s.labels().get("role")));
    assertThat(roles).as("the frontend is no side of a pair").containsExactly("decode", "prefill");
  }
}
