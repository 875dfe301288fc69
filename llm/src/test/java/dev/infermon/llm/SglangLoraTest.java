package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.SglangPod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.model.LoraAdapters;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The LoRA slots panels on SGLang's {@code lora_pool_slots_used} / {@code lora_pool_slots_total}
 * (two TP ranks each writing the same batch: never summed) beside a vLLM pod whose slots come from
 * its adapter lists, both serving one model with three adapters and two slots. At every scrape the
 * pod panel is what each page wrote, and the model panel adds the engines up.
 */
class SglangLoraTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final FleetConfigBuilder FLEET =
      FleetConfig.builder()
          .vllmPods(1)
          .dataParallelPods(0)
          .legacyVllmPods(0)
          .sglangPods(1)
          .sglangTensorParallel(2)
          .sglangGatewayPods(0)
          .prefillDecode(false)
          .models(List.of(MODEL));

  private static SimulatedFleet fleet;

  /** Per scrape time: pod -> {slots used, slots} as the page wrote them. */
  private static final Map<Long, Map<String, int[]>> truth = new TreeMap<>();

  @BeforeAll
  static void run() {
    fleet =
        new SimulatedFleet(
            FLEET.lora(new LoraAdapters(List.of("sql", "chat", "legal"), 2)).build(), false);
    fleet.run(Duration.ofMinutes(4), SglangLoraTest::observe);
  }

  private static void observe(Fleet.Snapshot snap) {
    Map<String, int[]> at = new HashMap<>();
    for (InferencePod p : fleet.fleet.pods()) {
      if (p instanceof SglangPod s) {
        at.put(
            p.info().name(), new int[] {s.metrics().loraSlotsUsed(), s.metrics().loraSlotsTotal()});
      } else if (p instanceof VllmPod v) {
        at.put(
            p.info().name(),
            new int[] {v.metrics(0).lora().runningList().size(), v.lora().maxLoras()});
      }
    }
    truth.put(fleet.now(), at);
  }

  @Test
  void podSlotsAreWhatEachPageWroteAndTheModelAddsTheEngines() {
    int busy = 0;
    for (Map.Entry<Long, Map<String, int[]>> e : truth.entrySet()) {
      long t = e.getKey();
      if (t < SimulatedFleet.START + 60_000) {
        continue;
      }
      Map<String, Double> used =
          PanelValues.panel(fleet.backend, t, "pod.lora_slots", 0, Filters.NONE);
      Map<String, Double> max =
          PanelValues.panel(fleet.backend, t, "pod.lora_slots", 1, Filters.NONE);
      double modelUsed = 0;
      for (Map.Entry<String, int[]> pod : e.getValue().entrySet()) {
        int[] v = pod.getValue();
        boolean sglang = pod.getKey().startsWith("sglang-");
        // vLLM's empty running list leaves no series; SGLang writes 0
        Double expected = v[0] == 0 && !sglang ? null : (double) v[0];
        assertThat(used.get(pod.getKey())).as(pod.getKey() + " used at " + t).isEqualTo(expected);
        assertThat(max.get(pod.getKey())).as(pod.getKey() + " slots").isEqualTo(2.0);
        modelUsed += v[0];
        busy += sglang && v[0] > 0 ? 1 : 0;
      }
      Map<String, Double> model =
          PanelValues.panel(fleet.backend, t, "model.lora_slots", 0, Filters.NONE);
      assertThat(model.get(MODEL)).as("model used at " + t).isEqualTo(modelUsed);
      assertThat(PanelValues.panel(fleet.backend, t, "model.lora_slots", 1, Filters.NONE))
          .containsExactly(Map.entry(MODEL, 4.0));
    }
    assertThat(busy).as("scrapes at which SGLang's running batch held an adapter").isPositive();
  }

  @Test
  void withoutTheFlagSglangsSlotPanelsNameIt() {
    SimulatedFleet off =
        new SimulatedFleet(FLEET.vllmPods(0).lora(LoraAdapters.NONE).build(), false);
    off.run(Duration.ofMinutes(2));
    DashboardService s = new DashboardService(QueryStack.of(off.backend), CATALOG);
    for (PanelResult p :
        s.render(
            new DashboardRequest(
                Filters.NONE,
                0.95,
                off.now() - 120_000,
                off.now(),
                15_000,
                "5m",
                List.of("model.lora_slots", "pod.lora_slots")))) {
      assertThat(p.status()).as(p.panel().id()).isEqualTo(PanelResult.Status.EMPTY);
      assertThat(p.reasons())
          .as(p.panel().id())
          .isNotEmpty()
          .allSatisfy(
              r -> {
                assertThat(r.kind()).isEqualTo(EmptyReason.Kind.BEHIND_FLAG);
                assertThat(r.engine()).isEqualTo("sglang");
                assertThat(r.flag()).isEqualTo("--enable-lora");
              });
    }
  }
}
