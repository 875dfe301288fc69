package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.export.ExportService;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.inventory.LiveScrape;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.RouterKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The exported Grafana dashboard has no empty panel: every panel carries PromQL, with no fleet at
 * hand (the router level once per router the catalog knows, the cost with a price variable) and for
 * a fleet ({@code --endpoint}: its routers only). The exported router and cost queries are the
 * dashboard's own: evaluated by infermon's PromQL engine over a simulated fleet with each router,
 * they return what infermon's own panels return.
 */
class GrafanaExportPanelsTest {
  private static final Catalog CATALOG = Catalog.builtIn();
  private static final ExportService EXPORTS = new ExportService(CATALOG);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration RUN = Duration.ofMinutes(10);
  private static final double PRICE = 2.5;
  private static final LlmConfig.Cost COST =
      new LlmConfig.Cost("USD", Optional.of(PRICE), Map.of());

  /**
   * The number of dashboard panels (not rows) an exported dashboard shows: a heatmap shown once per
   * engine ("Prompt length (sglang)") counts once.
   */
  private static int panels(JsonNode dashboard) {
    java.util.Set<String> titles = new java.util.HashSet<>();
    for (JsonNode p : dashboard.path("panels")) {
      if (!p.path("type").asText().equals("row")) {
        titles.add(base(p));
      }
    }
    return titles.size();
  }

  /** A panel's title without the engine a per-engine heatmap names; its id where titles repeat. */
  private static String base(JsonNode p) {
    String title = p.path("title").asText();
    if (p.path("type").asText().equals("heatmap")) {
      for (var e : CATALOG.engines()) {
        if (title.endsWith(" (" + e.engine() + ")")) {
          return title.substring(0, title.length() - e.engine().length() - 3);
        }
      }
    }
    return p.path("id").asText();
  }

  /**
   * A heatmap whose signal several engines have is one Grafana panel per engine, each reading one
   * engine's buckets: their bounds differ, and Grafana's heatmap merges series by {@code le}.
   */
  @Test
  void aHeatmapOfSeveralEnginesIsOnePanelPerEngine() throws IOException {
    JsonNode d = JSON.readTree(EXPORTS.grafana(List.of("vllm", "sglang")));
    List<String> titles = new ArrayList<>();
    for (JsonNode p : d.path("panels")) {
      if (!p.path("type").asText().equals("heatmap")) {
        continue;
      }
      titles.add(p.path("title").asText());
      String expr = p.path("targets").get(0).path("expr").asText();
      boolean vllm = expr.contains("vllm:");
      boolean sglang = expr.contains("sglang:");
      assertThat(vllm ^ sglang).as(p.path("title").asText() + ": " + expr).isTrue();
      assertThat(p.path("title").asText()).endsWith(vllm ? " (vllm)" : " (sglang)");
      assertThat(expr).doesNotContain("infermon_engine");
    }
    assertThat(titles)
        .contains(
            "Prompt length distribution (vllm)",
            "Prompt length distribution (sglang)",
            "Generation length distribution (vllm)",
            "Generation length distribution (sglang)");
    // one engine: one panel, titled as the dashboard's
    JsonNode one = JSON.readTree(EXPORTS.grafana(List.of("vllm")));
    List<String> alone = new ArrayList<>();
    one.path("panels")
        .forEach(
            p -> {
              if (p.path("type").asText().equals("heatmap")) {
                alone.add(p.path("title").asText());
              }
            });
    assertThat(alone)
        .containsExactlyInAnyOrder("Prompt length distribution", "Generation length distribution");
  }

  /** The panels (not rows) of an exported dashboard whose targets hold no expression. */
  private static List<String> withoutExpr(String json) throws IOException {
    List<String> out = new ArrayList<>();
    for (JsonNode p : JSON.readTree(json).path("panels")) {
      if (p.path("type").asText().equals("row")) {
        continue;
      }
      boolean expr = false;
      for (JsonNode t : p.path("targets")) {
        expr |= !t.path("expr").asText().isBlank();
      }
      if (!expr) {
        out.add(p.path("id").asInt() + " " + p.path("title").asText());
      }
    }
    return out;
  }

  @Test
  void everyPanelOfTheDefaultExportHasAQuery() throws IOException {
    assertThat(withoutExpr(EXPORTS.grafana(List.of()))).isEmpty();
    assertThat(withoutExpr(EXPORTS.grafana(List.of(), List.of(), COST))).isEmpty();
    JsonNode d = JSON.readTree(EXPORTS.grafana(List.of()));
    // every engine: nothing left out
    assertThat(panels(d)).isEqualTo(Dashboards.standard().size());
    assertThat(d.has("description")).isFalse();
    assertThat(panel(d, "router.routed").path("targets"))
        .extracting(t -> t.path("legendFormat").asText())
        .containsExactly("{{pod}} production-stack", "{{pod}} llm-d");
    assertThat(panel(d, "router.latency").path("targets"))
        .extracting(t -> t.path("legendFormat").asText())
        .containsExactly(
            "{{model_name}} p$quantile production-stack",
            "{{model_name}} p$quantile llm-d",
            "{{model_name}} p$quantile smg",
            "{{model_name}} p$quantile dynamo");
    // llm-d's current names with their deprecated twins, never the generation no EPP emits
    String llmd = panel(d, "router.latency").path("targets").get(1).path("expr").asText();
    assertThat(llmd)
        .contains("llm_d_epp_request_duration_seconds_bucket")
        .contains("inference_objective_request_duration_seconds_bucket")
        .doesNotContain("inference_model_");
  }

  /**
   * An export for some engines ({@code --engines}) leaves out the panels none of whose queries the
   * engines can be read for (the GPU panels without a GPU exporter, a signal the engine lacks),
   * never exports them empty, and its description names each.
   */
  @Test
  void anExportForSomeEnginesLeavesOutWhatTheyCannotFillAndSaysSo() throws IOException {
    int all = Dashboards.standard().size();
    for (var e : CATALOG.engines()) {
      String json = EXPORTS.grafana(List.of(e.engine()));
      assertThat(withoutExpr(json)).as(e.engine()).isEmpty();
      JsonNode d = JSON.readTree(json);
      String description = d.path("description").asText();
      int leftOut = description.isEmpty() ? 0 : description.split("; ").length;
      assertThat(panels(d) + leftOut).as(e.engine() + ": " + description).isEqualTo(all);
    }
    String vllm = JSON.readTree(EXPORTS.grafana(List.of("vllm"))).path("description").asText();
    assertThat(vllm)
        .startsWith("Left out, as no query of theirs reads a family of the engines exported: ")
        .contains("GPU per pod / ");
  }

  @ParameterizedTest
  @EnumSource(
      value = RouterKind.class,
      names = {"PRODUCTION_STACK", "LLM_D", "SMG", "DYNAMO"})
  void everyPanelOfAFleetsExportHasAQueryAndOnlyItsRouters(RouterKind kind) throws IOException {
    SimulatedFleet f = new SimulatedFleet(config(kind), false).run(Duration.ofMinutes(2));
    String json = EXPORTS.grafana(live(f), COST);
    assertThat(withoutExpr(json)).isEmpty();
    assertThat(panels(JSON.readTree(json))).isPositive();
    JsonNode d = JSON.readTree(json);
    for (Panel p : Dashboards.standard()) {
      if (p.id().startsWith("router.") && !panel(d, p.id()).isMissingNode()) {
        for (JsonNode t : panel(d, p.id()).path("targets")) {
          assertThat(t.path("legendFormat").asText()).as(p.id()).endsWith(" " + kind.label());
        }
      }
    }
    assertThat(panel(d, "router.latency").path("targets")).as("latency").hasSize(1);
    // what the fleet cannot fill is named, as the prefill/decode view without pairs
    assertThat(d.path("description").asText())
        .startsWith("Left out, as no query of theirs reads a family the targets expose: ");
  }

  /**
   * Each exported router query (and the cost, at the variable's value) returns, series for series,
   * what the dashboard's panel returns on a fleet with that router, in the default export and in
   * the export for the fleet's own pages.
   */
  @ParameterizedTest
  @EnumSource(
      value = RouterKind.class,
      names = {"PRODUCTION_STACK", "LLM_D", "SMG", "DYNAMO"})
  void exportedRouterQueriesReturnTheDashboardsValues(RouterKind kind) throws IOException {
    SimulatedFleet f = new SimulatedFleet(config(kind), false).run(RUN);
    long now = f.now();
    DashboardService service =
        new DashboardService(
            QueryStack.of(f.backend), new InventoryService(CATALOG, f.backend), () -> COST);
    List<PanelResult> rendered =
        service.render(
            new DashboardRequest(Filters.NONE, 0.95, now - 60_000, now, 15_000, "5m", List.of()));
    JsonNode all = JSON.readTree(EXPORTS.grafana(List.of(), List.of(), COST));
    JsonNode fleet = JSON.readTree(EXPORTS.grafana(live(f), COST));
    java.util.Set<String> compared = new java.util.TreeSet<>();
    for (PanelResult r : rendered) {
      String id = r.panel().id();
      if (!(id.startsWith("router.") || id.equals("pd.ttft_router") || id.equals(COST_PANEL))) {
        continue;
      }
      String promql = r.queries().get(0).promql();
      if (promql == null) {
        // the fleet lacks the router's family (smg's TTFT is its gRPC router's): the default
        // export reads it all the same, the fleet's leaves the panel out
        assertThat(panel(fleet, id).isMissingNode()).as(id + " in the fleet's export").isTrue();
        continue;
      }
      Map<String, Double> expected = values(f, promql, now);
      assertThat(expected).as(id + " has data").isNotEmpty();
      for (JsonNode d : List.of(all, fleet)) {
        List<String> exprs = exprFor(d, id, kind);
        assertThat(exprs).as(id).hasSize(1);
        Map<String, Double> got = values(f, grafana(exprs.get(0)), now);
        assertThat(got.keySet()).as(id).isEqualTo(expected.keySet());
        expected.forEach(
            (k, v) -> assertThat(got.get(k)).as(id + " " + k).isCloseTo(v, within(1e-9)));
        compared.add(id);
      }
    }
    // what each simulated router writes (smg's HTTP router: no decisions, no TTFT)
    assertThat(compared).as("panels compared").containsAll(MEASURED.get(kind));
  }

  /**
   * With vLLM production-stack's router scraped beside the vLLM pods, an exported engine query that
   * reads a gauge the router copies per backend ({@code vllm:num_requests_running{server=...}})
   * leaves the copies out, as the dashboard does: every selector of such a gauge in the default
   * export and in the fleet's own reads either the engines' series ({@code server=""}) or, on the
   * router level, the router's ({@code server!=""}), and the scheduler and queue panels return what
   * the dashboard's return, none of their series the router's.
   */
  @Test
  void exportedEngineQueriesLeaveTheRoutersPerBackendCopiesOut() throws IOException {
    SimulatedFleet f = new SimulatedFleet(config(RouterKind.PRODUCTION_STACK), false).run(RUN);
    long now = f.now();
    String router = routerPod(f);
    DashboardService service =
        new DashboardService(
            QueryStack.of(f.backend), new InventoryService(CATALOG, f.backend), () -> COST);
    List<PanelResult> rendered =
        service.render(
            new DashboardRequest(Filters.NONE, 0.95, now - 60_000, now, 15_000, "5m", List.of()));
    String allJson = EXPORTS.grafana(List.of(), List.of(), COST);
    String fleetJson = EXPORTS.grafana(live(f), COST);
    for (String json : List.of(allJson, fleetJson)) {
      for (String copied : productionStack().shadows()) {
        java.util.regex.Matcher m =
            java.util.regex.Pattern.compile(
                    "(?<![A-Za-z0-9_:])" + java.util.regex.Pattern.quote(copied) + "\\{[^}]*\\}")
                .matcher(JSON.readTree(json).toString());
        while (m.find()) {
          // an engine's series (server="") or, on the router level, the router's (server!="")
          assertThat(m.group()).containsPattern("server!?=\\\\\"\\\\\"");
        }
      }
    }
    java.util.Set<String> compared = new java.util.TreeSet<>();
    for (PanelResult r : rendered) {
      String id = r.panel().id();
      if (!List.of("pod.scheduler", "causal_model.queue").contains(id)) {
        continue;
      }
      Map<String, String> promql = new TreeMap<>();
      r.queries().stream()
          .filter(q -> q.promql() != null)
          .forEach(q -> promql.put(q.legend(), q.promql()));
      for (JsonNode d : List.of(JSON.readTree(allJson), JSON.readTree(fleetJson))) {
        JsonNode targets = panel(d, id).path("targets");
        assertThat(targets).as(id).isNotEmpty();
        for (JsonNode t : targets) {
          String legend = t.path("legendFormat").asText();
          assertThat(promql).as(id + " " + legend).containsKey(legend);
          Map<String, Double> expected = values(f, promql.get(legend), now);
          Map<String, Double> got = values(f, grafana(t.path("expr").asText()), now);
          assertThat(expected).as(id + " " + legend).isNotEmpty();
          assertThat(got.keySet()).as(id + " " + legend).isEqualTo(expected.keySet());
          assertThat(got.keySet()).as(id + " " + legend).noneMatch(k -> k.contains(router));
          expected.forEach(
              (k, v) ->
                  assertThat(got.get(k))
                      .as(id + " " + legend + " " + k)
                      .isCloseTo(v, within(1e-9)));
        }
        compared.add(id);
      }
    }
    assertThat(compared)
        .as("panels compared")
        .containsExactly("causal_model.queue", "pod.scheduler");
  }

  private static dev.infermon.llm.catalog.Router productionStack() {
    return CATALOG.nonEngine().routers().stream()
        .filter(r -> r.backend().equals("production-stack"))
        .findFirst()
        .orElseThrow();
  }

  /** The name of the fleet's production-stack router pod. */
  private static String routerPod(SimulatedFleet f) {
    for (PodInfo p : f.fleet.inventory()) {
      if (f.fleet.render(p.name()).orElse("").contains("vllm:healthy_pods_total")) {
        return p.name();
      }
    }
    throw new AssertionError("no production-stack router in the fleet");
  }

  private static final String COST_PANEL = "efficiency.cost_per_million_tokens";

  private static final Map<RouterKind, List<String>> MEASURED =
      Map.of(
          RouterKind.PRODUCTION_STACK,
          List.of("router.routed", "router.in_flight", "router.latency", COST_PANEL),
          RouterKind.LLM_D,
          List.of(
              "router.routed",
              "router.queue",
              "router.decisions",
              "router.latency",
              "router.ttft",
              "pd.ttft_router",
              COST_PANEL),
          RouterKind.SMG,
          List.of("router.in_flight", "router.latency", COST_PANEL),
          RouterKind.DYNAMO,
          List.of(
              "router.in_flight",
              "router.queue",
              "router.latency",
              "router.ttft",
              "pd.ttft_router",
              COST_PANEL));

  private static FleetConfig config(RouterKind router) {
    return FleetConfig.builder()
        .vllmPods(3)
        .legacyVllmPods(0)
        .sglangPods(2)
        .sglangGatewayPods(0)
        .prefillDecode(router == RouterKind.LLM_D || router == RouterKind.DYNAMO)
        .router(router)
        .build();
  }

  /** The fleet's pages as {@code export --endpoint} inventories them, each scraped once. */
  private static Inventory live(SimulatedFleet f) throws IOException {
    LiveScrape scrape = new LiveScrape(CATALOG, Duration.ofSeconds(1));
    List<TargetInventory> targets = new ArrayList<>();
    for (PodInfo p : f.fleet.inventory()) {
      Optional<String> page = f.fleet.render(p.name());
      if (page.isPresent()) {
        byte[] bytes = page.get().getBytes(StandardCharsets.UTF_8);
        targets.add(scrape.fromPage(p.name(), bytes, "text/plain; version=0.0.4"));
      }
    }
    return new Inventory(targets);
  }

  /** The exported panel of dashboard panel {@code id}, found by its title; missing if none. */
  private static JsonNode panel(JsonNode dashboard, String id) {
    String title = Dashboards.panel(id).title();
    for (JsonNode p : dashboard.path("panels")) {
      if (p.path("title").asText().equals(title) && !p.path("type").asText().equals("row")) {
        return p;
      }
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  /** The expressions of {@code id}'s exported targets for {@code kind} (any, for the cost). */
  private static List<String> exprFor(JsonNode dashboard, String id, RouterKind kind) {
    List<String> out = new ArrayList<>();
    for (JsonNode t : panel(dashboard, id).path("targets")) {
      if (id.equals(COST_PANEL) || t.path("legendFormat").asText().endsWith(" " + kind.label())) {
        out.add(t.path("expr").asText());
      }
    }
    return out;
  }

  /** An exported expression with Grafana's variables at the dashboard's defaults. */
  private static String grafana(String expr) {
    String e =
        expr.replace("$__rate_interval", "5m")
            .replace("$__interval_ms", "15000")
            .replace("$__interval", "15s")
            .replace("$quantile", "0.95")
            .replace("$gpu_hour_price", Double.toString(PRICE));
    for (String v : List.of("namespace", "workload", "model", "backend", "role")) {
      e = e.replace("$" + v, ".*");
    }
    assertThat(e).as(expr).doesNotContainPattern("\\$[A-Za-z_{]");
    return e;
  }

  /** The query's series at {@code at}, by their labels. */
  private static Map<String, Double> values(SimulatedFleet f, String q, long at) {
    Vector v = (Vector) f.backend.instantQuery(q, at).value();
    Map<String, Double> out = new TreeMap<>();
    for (Sample s : v.samples()) {
      out.put(s.labels().toString(), s.value());
    }
    return out;
  }
}
