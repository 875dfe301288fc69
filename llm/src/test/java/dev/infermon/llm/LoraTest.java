package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.FleetConfigBuilder;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.vllm.VllmLora;
import dev.infermon.simulator.vllm.VllmRelease;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The LoRA panels against the simulator's own requests: two current vLLM pods (both lists name the
 * adapters in flight) and one 0.11 pod (lists by state) serving three adapters with two slots;
 * after four minutes the adapter {@code legal} is no longer asked for and goes idle. Each panel's
 * value at every scrape is what the engines' requests were doing then; {@code legal} keeps its
 * past; without {@code --enable-lora} every LoRA panel names the flag.
 */
class LoraTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final List<String> ADAPTERS = List.of("sql", "chat", "legal");
  private static final FleetConfigBuilder SMALL =
      FleetConfig.builder()
          .vllmPods(2)
          .dataParallelPods(0)
          .legacyVllmPods(1)
          .legacyRelease(VllmRelease.V0_11)
          .sglangPods(0)
          .sglangGatewayPods(0)
          .prefillDecode(false)
          .models(List.of(MODEL));

  private static SimulatedFleet fleet;
  private static DashboardService service;
  private static long idleFrom;

  /** Per scrape time: "pod|adapter" -> {waiting, running} requests, and the pod's list kind. */
  private static final Map<Long, Map<String, int[]>> truth = new TreeMap<>();

  private static final Map<String, VllmLora.Lists> listsOf = new HashMap<>();

  @BeforeAll
  static void run() {
    fleet = new SimulatedFleet(SMALL.lora(new LoraAdapters(ADAPTERS, 2)).build(), false);
    fleet.run(Duration.ofMinutes(4), LoraTest::observe);
    idleFrom = fleet.now();
    for (InferencePod p : fleet.fleet.pods()) {
      ((VllmPod) p).setLoraAdapters(List.of("sql", "chat"));
    }
    fleet.run(Duration.ofMinutes(4), LoraTest::observe);
    service = new DashboardService(QueryStack.of(fleet.backend), CATALOG);
  }

  private static void observe(dev.infermon.simulator.Fleet.Snapshot snap) {
    Map<String, int[]> at = new HashMap<>();
    for (InferencePod p : fleet.fleet.pods()) {
      VllmLora l = ((VllmPod) p).metrics(0).lora();
      listsOf.put(p.info().name(), l.lists());
      for (String a : ADAPTERS) {
        at.put(p.info().name() + "|" + a, new int[] {l.waiting(a), l.running(a)});
      }
    }
    truth.put(snap.timeMillis(), at);
  }

  /** Whether the pod's vLLM lists the adapter as running (list 1) or waiting (list 0) at t. */
  private static boolean listed(long t, String pod, String adapter, int list) {
    int[] n = truth.get(t).get(pod + "|" + adapter);
    if (listsOf.get(pod) == VllmLora.Lists.IN_FLIGHT) {
      return n[0] + n[1] > 0; // both lists: every adapter with a request in flight
    }
    return n[list] > 0;
  }

  /** One query of a panel at {@code t}: "series key" -> value. */
  private static Map<String, Double> query(String panelId, int query, long t, String... keys) {
    Panel p = Dashboards.panel(panelId);
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(
            Filters.NONE,
            Map.of(),
            0.95,
            "5m",
            Presence.of(service.inventory(t).families()),
            // a step of 1 ms: the lists current at t itself, what the truth records
            "1ms");
    String q =
        new PromqlCompiler(CATALOG)
            .compile(p.queries().get(query).measure(), p.level(), o)
            .orElseThrow();
    Vector v = (Vector) fleet.backend.instantQuery(q, t).value();
    Map<String, Double> out = new HashMap<>();
    for (Sample s : v.samples()) {
      StringBuilder k = new StringBuilder();
      for (String key : keys) {
        k.append(k.length() == 0 ? "" : "|").append(s.labels().get(key));
      }
      assertThat(out.put(k.toString(), s.value())).as("one series per " + k).isNull();
    }
    return out;
  }

  @Test
  void podRunningAndWaitingPerAdapterAreWhatTheRequestsDid() {
    int listedSeen = 0;
    for (long t : truth.keySet()) {
      if (t < SimulatedFleet.START + 60_000) {
        continue; // the inventory needs a few scrapes
      }
      for (int list = 0; list <= 1; list++) {
        Map<String, Double> panel =
            query("pod.lora_adapters", list == 1 ? 0 : 1, t, "pod", "lora_adapter");
        for (String pod : listsOf.keySet()) {
          for (String a : ADAPTERS) {
            boolean expected = listed(t, pod, a, list);
            listedSeen += expected ? 1 : 0;
            assertThat(panel.get(pod + "|" + a))
                .as("%s %s %s at %d", pod, a, list == 1 ? "running" : "waiting", t)
                .isEqualTo(expected ? 1.0 : null);
          }
        }
      }
    }
    assertThat(listedSeen).isGreaterThan(100);
  }

  @Test
  void modelPanelsCountThePodsListingEachAdapter() {
    long t = idleFrom;
    Map<String, Double> running = query("model.lora_adapters", 0, t, "model_name", "lora_adapter");
    for (String a : ADAPTERS) {
      int pods = 0;
      for (String pod : listsOf.keySet()) {
        pods += listed(t, pod, a, 1) ? 1 : 0;
      }
      assertThat(running.get(MODEL + "|" + a)).as(a).isEqualTo(pods == 0 ? null : (double) pods);
    }
  }

  @Test
  void slotsUsedAreTheAdaptersRunningAgainstMaxLora() {
    for (long t : List.of(idleFrom - 60_000, idleFrom, fleet.now())) {
      Map<String, Double> used = query("pod.lora_slots", 0, t, "pod");
      Map<String, Double> max = query("pod.lora_slots", 1, t, "pod");
      for (String pod : listsOf.keySet()) {
        int n = 0;
        for (String a : ADAPTERS) {
          n += listed(t, pod, a, 1) ? 1 : 0;
        }
        assertThat(used.get(pod)).as(pod + " used at " + t).isEqualTo(n == 0 ? null : (double) n);
        assertThat(max.get(pod)).as(pod + " max_lora").isEqualTo(2.0);
      }
      assertThat(query("model.lora_slots", 1, t, "model_name").get(MODEL)).isEqualTo(6.0);
    }
  }

  @Test
  void anAdapterThatWentIdleKeepsItsPast() {
    long end = fleet.now();
    // no request asks for legal any more: it has left every list...
    for (String pod : listsOf.keySet()) {
      assertThat(listed(end, pod, "legal", 1)).isFalse();
    }
    assertThat(query("pod.lora_adapters", 0, end, "pod", "lora_adapter").keySet())
        .noneMatch(k -> k.endsWith("|legal"));
    // ...but the panel over the whole window still has its series, with the steps it was listed
    long start = SimulatedFleet.START + 60_000;
    PanelResult p =
        service
            .render(
                new DashboardRequest(
                    Filters.NONE, 0.95, start, end, 15_000, "5m", List.of("pod.lora_adapters")))
            .get(0);
    assertThat(p.status()).isEqualTo(PanelResult.Status.OK);
    long legal =
        p.queries().get(0).series().stream()
            .filter(s -> "legal".equals(s.labels().get("lora_adapter")) && s.hasValues())
            .count();
    assertThat(legal).as("pods with a past of legal running").isEqualTo(listsOf.size());
  }

  @Test
  void theAdapterFilterScopesThePerAdapterPanelsAndTheModelFilterOffersAdapters() {
    long t = idleFrom - 60_000;
    PanelResult p =
        service
            .render(
                new DashboardRequest(
                    Filters.of(Map.of("lora_adapter", "chat")),
                    0.95,
                    t - 120_000,
                    t,
                    15_000,
                    "5m",
                    List.of("pod.lora_adapters", "pod.lora_slots")))
            .get(0);
    assertThat(p.status()).isEqualTo(PanelResult.Status.OK);
    assertThat(p.queries().get(0).series())
        .isNotEmpty()
        .allSatisfy(s -> assertThat(s.labels()).containsEntry("lora_adapter", "chat"));
    // the idle adapter is offered too: its past is in the window
    assertThat(service.adapters(Filters.NONE, SimulatedFleet.START, fleet.now()))
        .extracting(dev.infermon.llm.dashboard.LoraAdapter::adapter)
        .containsExactly("chat", "legal", "sql");
    assertThat(service.adapters(Filters.NONE, fleet.now() - 60_000, fleet.now()))
        .extracting(dev.infermon.llm.dashboard.LoraAdapter::adapter)
        .containsExactly("chat", "sql");
    assertThat(service.adapters(Filters.of(Map.of("model_name", "other")), idleFrom, fleet.now()))
        .isEmpty();
  }

  @Test
  void withoutTheFlagEveryLoraPanelNamesIt() {
    SimulatedFleet off = new SimulatedFleet(SMALL.lora(LoraAdapters.NONE).build(), false);
    off.run(Duration.ofMinutes(3));
    DashboardService s = new DashboardService(QueryStack.of(off.backend), CATALOG);
    for (PanelResult p :
        s.render(
            new DashboardRequest(
                Filters.NONE,
                0.95,
                off.now() - 300_000,
                off.now(),
                15_000,
                "5m",
                List.of(
                    "model.lora_adapters",
                    "model.lora_slots",
                    "pod.lora_adapters",
                    "pod.lora_slots")))) {
      assertThat(p.status()).as(p.panel().id()).isEqualTo(PanelResult.Status.EMPTY);
      assertThat(p.reasons())
          .as(p.panel().id())
          .isNotEmpty()
          .allSatisfy(
              r -> {
                assertThat(r.kind()).isEqualTo(EmptyReason.Kind.BEHIND_FLAG);
                assertThat(r.flag()).isEqualTo("--enable-lora");
                assertThat(r.message()).contains("--enable-lora");
              });
    }
  }
}
