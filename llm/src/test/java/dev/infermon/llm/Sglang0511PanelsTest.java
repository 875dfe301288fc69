package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.SglangPod;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.sglang.SglangRelease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboard over the same SGLang fleet (servers with TP 2, one behind the gateway, a PD pair)
 * on the 0.5.9 and the 0.5.11 line: every SGLang panel shows on 0.5.11 what it shows on 0.5.9, data
 * or the same reasons, though the families it reads changed (the KV pool's pages from {@code
 * num_pages} instead of {@code cache_config_info}'s label), and the values that moved to other
 * families equal the engines' own.
 */
class Sglang0511PanelsTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final List<String> BACKENDS = List.of("sglang", "sglang-pd");
  private static final Map<SglangRelease, SimulatedFleet> fleets = new LinkedHashMap<>();
  private static final Map<String, Map<String, PanelResult>> panels = new LinkedHashMap<>();

  @BeforeAll
  static void run() {
    for (SglangRelease r : SglangRelease.values()) {
      SimulatedFleet f =
          new SimulatedFleet(
              FleetConfig.builder()
                  .vllmPods(0)
                  .legacyVllmPods(0)
                  .sglangPods(2)
                  .sglangTensorParallel(2)
                  .sglangGatewayPods(1)
                  .prefillDecode(true)
                  .sglangRelease(r)
                  .build(),
              false);
      f.run(Duration.ofMinutes(10));
      fleets.put(r, f);
      DashboardService s = new DashboardService(QueryStack.of(f.backend), CATALOG);
      for (String b : BACKENDS) {
        Map<String, PanelResult> byId = new LinkedHashMap<>();
        Filters filters = Filters.of(Map.of("backend", b));
        for (PanelResult p : s.render(DashboardRequest.of(filters, f.now() - 300_000, f.now()))) {
          byId.put(p.panel().id(), p);
        }
        panels.put(r.version() + " " + b, byId);
      }
    }
  }

  /** What a panel shows, as MixedFleetPanelsTest notes it: data, and each reason's kind. */
  private static String shown(PanelResult p) {
    List<String> parts = new ArrayList<>();
    if (p.status() != PanelResult.Status.EMPTY) {
      parts.add("data");
    }
    for (EmptyReason r : new LinkedHashSet<>(p.reasons())) {
      String s = r.kind() + ":" + r.engine() + (r.version() == null ? "" : "@" + r.version());
      if (!parts.contains(s)) {
        parts.add(s);
      }
    }
    return String.join("+", parts);
  }

  @Test
  void everySglangPanelShowsOn0511WhatItShowsOn0509() {
    int withData = 0;
    for (String b : BACKENDS) {
      Map<String, PanelResult> old = panels.get("0.5.9 " + b);
      Map<String, PanelResult> now = panels.get("0.5.11 " + b);
      assertThat(now.keySet()).isEqualTo(old.keySet());
      for (String id : old.keySet()) {
        String was = shown(old.get(id));
        assertThat(shown(now.get(id)))
            .as("%s for %s: %s", id, b, now.get(id).reasons())
            .isEqualTo(was);
        withData += was.startsWith("data") ? 1 : 0;
      }
    }
    assertThat(withData).as("panels with data on both lines").isGreaterThan(60);
  }

  @Test
  void noReasonOn0511NamesARelease() {
    // a reason naming the release that has a family would be false on a fleet that runs it: the
    // 0.5.11 fleet's reasons are those of families SGLang has in no release, behind a flag, or not
    // created yet
    for (String b : BACKENDS) {
      for (PanelResult p : panels.get("0.5.11 " + b).values()) {
        for (EmptyReason r : p.reasons()) {
          if (r.engine().equals("sglang")) {
            assertThat(r.version()).as("%s for %s: %s", p.panel().id(), b, r).isNull();
          }
        }
      }
    }
  }

  @Test
  void kvCapacityComesFromNumPagesAndMaxTotalNumTokensOn0511() {
    SimulatedFleet f = fleets.get(SglangRelease.V0_5_11);
    Filters sglang = Filters.of(Map.of("backend", "sglang"));
    Map<String, Double> tokens =
        PanelValues.panel(f.backend, f.now(), "pod.kv_capacity", 0, sglang);
    Map<String, Double> pages = PanelValues.panel(f.backend, f.now(), "pod.kv_capacity", 1, sglang);
    int checked = 0;
    for (InferencePod p : f.fleet.pods()) {
      if (!(p instanceof SglangPod) || !p.info().role().isEmpty()) {
        continue;
      }
      EngineState s = p.engines().get(0).state();
      String pod = p.info().name();
      assertThat(pages.get(pod)).as(pod).isEqualTo((double) s.totalBlocks());
      assertThat(tokens.get(pod)).as(pod).isEqualTo((double) s.totalBlocks() * s.blockSize());
      checked++;
    }
    assertThat(checked).as("SGLang servers, the gateway's included").isEqualTo(3);
    // no cache_config_info on a 0.5.11 page: the pages are num_pages' values, on the gateway's
    // rewritten page too
    assertThat(vector(f, "{__name__=~\"sglang[:_]cache_config_info\"}")).isEmpty();
    assertThat(vector(f, "sglang_num_pages")).hasSize(2); // the gateway's pod, two TP ranks
    assertThat(vector(f, "{__name__=\"sglang:num_pages\", engine_type=\"unified\"}")).hasSize(4);
  }

  private static List<Sample> vector(SimulatedFleet f, String q) {
    return ((Vector) f.backend.instantQuery(q, f.now()).value()).samples();
  }
}
