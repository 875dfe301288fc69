package dev.infermon.web.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.Dashboards;
import dev.infermon.llm.dashboard.Panel;
import dev.infermon.llm.export.ExportService;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.model.LoraAdapters;
import dev.infermon.simulator.testing.FleetScrape;
import dev.infermon.web.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code /api/v1/llm/*} over a real server and a TSDB loaded with ten minutes of a simulated fleet
 * (vLLM current with data-parallel engines and 0.11, SGLang, dcgm-exporter). Expected values come
 * from the fleet's own inventory (models, pods, engines), never from the API's answers.
 */
class LlmApiTest {
  static final long START = 1_780_000_000_000L;
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static TestServer server;
  static Fleet fleet;
  static final AtomicReference<DashboardService> dashboard = new AtomicReference<>();
  static final AtomicReference<LlmConfig> llm = new AtomicReference<>(LlmConfig.DEFAULT);
  static long end;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServer.start(
            dir,
            EngineOptions.DEFAULTS,
            o -> o,
            b ->
                b.dashboard(dashboard::get)
                    .exports(new ExportService(Catalog.builtIn()))
                    .llm(llm::get));
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(2)
            .dataParallelPods(1)
            .legacyVllmPods(1)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .lora(new LoraAdapters(List.of("sql", "chat"), 1)) // the single-engine vLLM pods
            .build();
    fleet = Fleet.create(config, START);
    new FleetScrape(server.tsdb, true).run(fleet, Duration.ofMinutes(10));
    end = fleet.nowMillis();
    dashboard.set(new DashboardService(QueryStack.of(server.backend.get()), Catalog.builtIn()));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** The window of the last five minutes, 15 s steps, in the API's seconds. */
  static String window() {
    return "&start=" + (end - 300_000) / 1000 + "&end=" + end / 1000 + "&step=15";
  }

  static JsonNode ok(String path) throws Exception {
    HttpResponse<String> r = server.get(path);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.path("status").asText()).isEqualTo("success");
    return body.path("data");
  }

  static JsonNode panel(JsonNode dashboardData, String id) {
    for (JsonNode p : dashboardData.path("panels")) {
      if (p.path("panel").path("id").asText().equals(id)) {
        return p;
      }
    }
    throw new AssertionError("no panel " + id + " in " + dashboardData);
  }

  static Set<String> values(JsonNode panel, String label) {
    Set<String> out = new TreeSet<>();
    for (JsonNode q : panel.path("queries")) {
      for (JsonNode s : q.path("series")) {
        out.add(s.path("labels").path(label).asText());
      }
    }
    return out;
  }

  static Set<String> fleet(java.util.function.Function<PodInfo, String> f) {
    Set<String> out = new TreeSet<>();
    for (PodInfo p : fleet.inventory()) {
      if (p.backend() != Backend.DCGM) {
        out.add(f.apply(p));
      }
    }
    return out;
  }

  @Test
  void modelLevelServesEveryModelPanelWithSpecStatusPromqlAndSeriesOnTheStepGrid()
      throws Exception {
    JsonNode d = ok("/api/v1/llm/dashboard?level=model" + window());
    List<String> want = new ArrayList<>();
    for (Panel p : Dashboards.standard()) {
      // the model tab: the Model section and the efficiency per model
      if (Dashboards.layout().levelOf(p).equals("model")) {
        want.add(p.id());
      }
    }
    assertThat(want).contains("model.qps", "efficiency.idle_gpus");
    List<String> got = new ArrayList<>();
    d.path("panels").forEach(p -> got.add(p.path("panel").path("id").asText()));
    assertThat(got).isEqualTo(want);
    assertThat(d.path("level").asText()).isEqualTo("model");
    assertThat(d.path("quantile").asDouble()).isEqualTo(0.95);
    assertThat(d.path("quantiles").toString()).isEqualTo("[0.5,0.9,0.95,0.99]");
    assertThat(d.path("step").asDouble()).isEqualTo(15);

    JsonNode qps = panel(d, "model.qps");
    JsonNode spec = qps.path("panel");
    assertThat(spec.path("title").asText()).isEqualTo("Requests per second");
    assertThat(spec.path("unit").asText()).isEqualTo("reqps");
    assertThat(spec.path("kind").asText()).isEqualTo("timeseries");
    assertThat(spec.path("level").asText()).isEqualTo("model");
    assertThat(spec.path("section").asText()).isEqualTo("Model");
    assertThat(qps.path("status").asText()).isIn("OK", "PARTIAL");
    JsonNode q = qps.path("queries").get(0);
    assertThat(q.path("legend").asText()).isEqualTo("{{model_name}}");
    assertThat(q.path("promql").asText()).contains("sum by (model_name)");
    assertThat(values(qps, "model_name")).isEqualTo(fleet(PodInfo::model));
    JsonNode s = q.path("series").get(0);
    // compact: start and step, then one value per step (the last at the window's end)
    assertThat(s.has("timestamps")).isFalse();
    assertThat(s.path("start").asLong()).isEqualTo(end - 300_000);
    assertThat(s.path("step").asLong()).isEqualTo(15_000);
    assertThat(s.path("values")).hasSize(21);
    assertThat(s.path("values").get(20).isNumber()).isTrue();
    assertThat(s.path("values").get(20).asDouble()).isPositive();
  }

  @Test
  void filtersNarrowTheQueriesAndTheSeries() throws Exception {
    String model = fleet(PodInfo::model).iterator().next();
    String ns = fleet(PodInfo::namespace).iterator().next();
    for (String filter :
        List.of("model=" + TestServer.enc(model), "model_name=" + TestServer.enc(model))) {
      JsonNode d = ok("/api/v1/llm/dashboard?panels=model.qps,pod.kv_usage&" + filter + window());
      for (String id : List.of("model.qps", "pod.kv_usage")) {
        JsonNode p = panel(d, id);
        assertThat(p.path("queries").get(0).path("promql").asText())
            .contains("model_name=\"" + model + "\"");
        assertThat(values(p, "model_name")).isSubsetOf(Set.of(model, ""));
      }
      assertThat(values(panel(d, "model.qps"), "model_name")).containsExactly(model);
      Set<String> podsOfModel = new TreeSet<>();
      fleet.inventory().stream()
          .filter(i -> i.model().equals(model))
          .forEach(i -> podsOfModel.add(i.name()));
      assertThat(values(panel(d, "pod.kv_usage"), "pod")).isSubsetOf(podsOfModel).isNotEmpty();
    }
    JsonNode none = ok("/api/v1/llm/dashboard?panels=pod.kv_usage&namespace=nowhere" + window());
    JsonNode p = panel(none, "pod.kv_usage");
    assertThat(p.path("status").asText()).isEqualTo("EMPTY");
    assertThat(p.path("reasons").get(0).path("kind").asText()).isEqualTo("NO_TARGETS");
    assertThat(p.path("queries").get(0).path("promql").asText()).contains("namespace=\"nowhere\"");
    assertThat(ns).isNotEqualTo("nowhere");
  }

  @Test
  void anEmptyPanelSaysWhyWithKindEngineAndMessage() throws Exception {
    // SGLang has no speculative-decoding or waiting-by-reason families on this fleet's pages
    JsonNode d =
        ok(
            "/api/v1/llm/dashboard?level=pod&backend=sglang&panels=pod.waiting_by_reason"
                + window());
    JsonNode p = panel(d, "pod.waiting_by_reason");
    assertThat(p.path("status").asText()).isEqualTo("EMPTY");
    JsonNode r = p.path("reasons").get(0);
    assertThat(r.path("kind").asText()).isEqualTo("NOT_EXPOSED");
    assertThat(r.path("engine").asText()).isEqualTo("sglang");
    // the reason names the quantity, not the catalog key requests_waiting_by_reason
    assertThat(r.path("message").asText()).contains("waiting requests by reason");
    assertThat(p.path("queries").get(0).path("series")).isEmpty();
  }

  static Stream<String[]> badParameters() {
    return Stream.of(
        new String[] {
          "quantile=1.5", "invalid parameter \"quantile\": must be between 0.5 and 0.99, got 1.5"
        },
        new String[] {
          "quantile=abc", "invalid parameter \"quantile\": cannot parse \"abc\" to a number"
        },
        new String[] {
          "quantile=0.3", "invalid parameter \"quantile\": must be between 0.5 and 0.99, got 0.3"
        },
        new String[] {
          "quantile=NaN", "invalid parameter \"quantile\": cannot parse \"NaN\" to a number"
        },
        new String[] {
          "quantile=0.9d", "invalid parameter \"quantile\": cannot parse \"0.9d\" to a number"
        },
        new String[] {
          "level=cluster",
          "invalid parameter \"level\": unknown level \"cluster\" (one of all, model, pod, gpu, causal, pd, router)"
        },
        new String[] {
          "panels=model.nope", "invalid parameter \"panels\": unknown panel: \"model.nope\""
        },
        new String[] {
          "start=yesterday",
          "invalid parameter \"start\": cannot parse \"yesterday\" to a valid timestamp"
        },
        new String[] {
          "end=1e300", "invalid parameter \"end\": cannot parse \"1e300\" to a valid timestamp"
        },
        new String[] {
          "start=100&end=50",
          "invalid parameter \"end\": end timestamp must not be before start time"
        },
        new String[] {
          "start=0&end=1000000&step=1",
          "invalid parameter \"step\": exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)"
        },
        new String[] {
          "step=0",
          "invalid parameter \"step\": zero or negative query resolution step widths are not accepted. Try a positive integer"
        },
        new String[] {
          "top=0",
          "invalid parameter \"top\": must be a positive number of series (or all), got \"0\""
        },
        new String[] {
          "top=-2",
          "invalid parameter \"top\": must be a positive number of series (or all), got \"-2\""
        },
        new String[] {
          "top=ten",
          "invalid parameter \"top\": must be a positive number of series (or all), got \"ten\""
        },
        new String[] {
          "summary=yes", "invalid parameter \"summary\": must be true or false, got \"yes\""
        },
        new String[] {
          "window=5 minutes",
          "invalid parameter \"window\": must be a duration like 5m (s, m, h or d), got \"5 minutes\""
        },
        new String[] {
          "model=a&model_name=b",
          "invalid parameter \"model_name\": conflicts with another spelling of the same filter (\"a\" vs \"b\")"
        });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badParameters")
  void aBadParameterIsBadDataNamingIt(String query, String message) throws Exception {
    HttpResponse<String> r = server.get("/api/v1/llm/dashboard?" + query.replace(" ", "%20"));
    assertThat(r.statusCode()).isEqualTo(400);
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.path("status").asText()).isEqualTo("error");
    assertThat(body.path("errorType").asText()).isEqualTo("bad_data");
    assertThat(body.path("error").asText()).isEqualTo(message);
  }

  @Test
  void topCutsPerPodPanelsToTheHighestPeaksAndSaysHowManyThereWere() throws Exception {
    Set<String> pods = fleet(PodInfo::name);
    assertThat(pods).hasSizeGreaterThan(2);
    JsonNode all = ok("/api/v1/llm/dashboard?panels=pod.kv_usage,model.qps" + window());
    JsonNode cut = ok("/api/v1/llm/dashboard?panels=pod.kv_usage,model.qps&top=2" + window());
    assertThat(cut.path("top").asInt()).isEqualTo(2);
    JsonNode every = panel(all, "pod.kv_usage").path("queries").get(0);
    JsonNode kept = panel(cut, "pod.kv_usage").path("queries").get(0);
    assertThat(values(panel(all, "pod.kv_usage"), "pod")).isEqualTo(pods);
    assertThat(every.path("total").asInt()).isEqualTo(pods.size());
    assertThat(kept.path("total").asInt()).isEqualTo(pods.size());
    assertThat(kept.path("series")).hasSize(2);
    // the two kept are those whose largest value is highest, worst first
    List<Double> peaks = new ArrayList<>();
    for (JsonNode s : every.path("series")) {
      peaks.add(peak(s));
    }
    peaks.sort(java.util.Comparator.reverseOrder());
    assertThat(List.of(peak(kept.path("series").get(0)), peak(kept.path("series").get(1))))
        .isEqualTo(peaks.subList(0, 2));
    // the model level is never cut
    assertThat(panel(cut, "model.qps").path("queries"))
        .isEqualTo(panel(all, "model.qps").path("queries"));
    // top=all: every series, as without top
    assertThat(
            panel(
                ok("/api/v1/llm/dashboard?panels=pod.kv_usage&top=all" + window()), "pod.kv_usage"))
        .isEqualTo(panel(all, "pod.kv_usage"));
  }

  private static double peak(JsonNode series) {
    double best = Double.NEGATIVE_INFINITY;
    for (JsonNode v : series.path("values")) {
      if (v.isNumber()) {
        best = Math.max(best, v.asDouble());
      }
    }
    return best;
  }

  @Test
  void summaryGivesEveryPodItsLastValueAndASparkline() throws Exception {
    JsonNode all =
        ok(
            "/api/v1/llm/dashboard?panels=pod.kv_usage&start="
                + (end - 3_600_000) / 1000
                + "&end="
                + end / 1000
                + "&step=15");
    JsonNode sum =
        ok(
            "/api/v1/llm/dashboard?panels=pod.kv_usage&summary=true&start="
                + (end - 3_600_000) / 1000
                + "&end="
                + end / 1000
                + "&step=15");
    assertThat(sum.path("summary").asBoolean()).isTrue();
    JsonNode full = panel(all, "pod.kv_usage").path("queries").get(0).path("series");
    JsonNode small = panel(sum, "pod.kv_usage").path("queries").get(0).path("series");
    assertThat(values(panel(sum, "pod.kv_usage"), "pod")).isEqualTo(fleet(PodInfo::name));
    assertThat(small).hasSize(full.size());
    for (int i = 0; i < full.size(); i++) {
      JsonNode f = full.get(i);
      JsonNode s = small.get(i);
      assertThat(s.path("labels")).isEqualTo(f.path("labels"));
      assertThat(s.has("values")).isFalse();
      JsonNode last = null;
      for (JsonNode v : f.path("values")) {
        last = v.isNumber() ? v : last;
      }
      assertThat(s.path("last")).as("the last value").isEqualTo(last);
      assertThat(s.path("spark").size()).isBetween(2, 40);
      assertThat(peak(JSON.createObjectNode().set("values", s.path("spark"))))
          .as("the sparkline keeps the peak, to three digits")
          .isEqualTo(LlmJson.threeDigits(peak(f)));
    }
    assertThat(sum.toString().length()).isLessThan(all.toString().length());
  }

  @Test
  void theQuantileReachesTheQuery() throws Exception {
    JsonNode d = ok("/api/v1/llm/dashboard?panels=model.ttft&quantile=0.9" + window());
    JsonNode p = panel(d, "model.ttft");
    assertThat(d.path("quantile").asDouble()).isEqualTo(0.9);
    List<String> promql = new ArrayList<>();
    p.path("queries").forEach(q -> promql.add(q.path("promql").asText()));
    assertThat(promql).anyMatch(s -> s.contains("histogram_quantile(0.9,"));
  }

  @Test
  void levelsSelectPanelsByIdPrefixAndChainIsTheCausalChain() throws Exception {
    JsonNode causal = ok("/api/v1/llm/dashboard?level=causal&panels=" + ids("causal") + window());
    JsonNode chain = ok("/api/v1/llm/dashboard?level=chain&panels=" + ids("causal") + window());
    List<String> a = new ArrayList<>();
    causal.path("panels").forEach(p -> a.add(p.path("panel").path("id").asText()));
    List<String> b = new ArrayList<>();
    chain.path("panels").forEach(p -> b.add(p.path("panel").path("id").asText()));
    assertThat(a).isNotEmpty().isEqualTo(b).allMatch(id -> id.startsWith("causal_"));
    JsonNode gpuOnly = ok("/api/v1/llm/dashboard?level=gpu&panels=model.qps" + window());
    assertThat(gpuOnly.path("panels")).isEmpty();
  }

  private static String ids(String level) {
    List<String> out = new ArrayList<>();
    for (Panel p : Dashboards.standard()) {
      if (DashboardParams.levelOf(p).equals(level)) {
        out.add(p.id());
      }
    }
    return String.join(",", out);
  }

  @Test
  void specsAloneListALevelsPanelsWithoutRunningThemEvenBeforeTheStorageIsReady() throws Exception {
    DashboardService s = dashboard.getAndSet(null);
    try {
      JsonNode d = ok("/api/v1/llm/dashboard/panels?level=pod");
      List<String> got = new ArrayList<>();
      for (JsonNode spec : d.path("panels")) {
        got.add(spec.path("id").asText());
        assertThat(spec.path("title").asText()).isNotBlank();
        assertThat(spec.has("queries")).isFalse();
      }
      assertThat(got).isEqualTo(List.of(ids("pod").split(",")));
      assertThat(d.path("quantiles")).hasSize(4);
    } finally {
      dashboard.set(s);
    }
  }

  @Test
  void onePanelIsServedUnwrappedAsTheUiAsksForIt() throws Exception {
    String model = fleet(PodInfo::model).iterator().next();
    JsonNode p =
        ok(
            "/api/v1/llm/dashboard/panel?id=gpu.memory_used&panels=gpu.memory_used&quantile=0.95"
                + "&model_name="
                + TestServer.enc(model)
                + window());
    assertThat(p.path("panel").path("id").asText()).isEqualTo("gpu.memory_used");
    assertThat(p.path("panel").path("groupBy").toString())
        .isEqualTo("[\"namespace\",\"pod\",\"gpu\"]");
    assertThat(p.path("status").asText()).isIn("OK", "PARTIAL");
    for (JsonNode s : p.path("queries").get(0).path("series")) {
      assertThat(s.path("labels").path("gpu").asText()).isNotEmpty();
    }
    HttpResponse<String> none = server.get("/api/v1/llm/dashboard/panel?" + window().substring(1));
    assertThat(none.statusCode()).isEqualTo(400);
    assertThat(none.body()).contains("invalid parameter \\\"id\\\": a panel id is required");
    HttpResponse<String> two =
        server.get("/api/v1/llm/dashboard/panel?id=model.qps&panels=model.ttft" + window());
    assertThat(two.statusCode()).isEqualTo(400);
  }

  @Test
  void adaptersAreListedByModelAndScopeThePerAdapterPanels() throws Exception {
    Set<String> want = new TreeSet<>();
    for (PodInfo p : fleet.inventory()) {
      if (p.backend() == Backend.VLLM && p.dataParallel() == 1) {
        want.add(p.model() + "|chat");
        want.add(p.model() + "|sql");
      }
    }
    Set<String> got = new TreeSet<>();
    for (JsonNode a : ok("/api/v1/llm/dashboard/adapters?" + window().substring(1))) {
      got.add(a.path("model").asText() + "|" + a.path("adapter").asText());
    }
    assertThat(got).isNotEmpty().isEqualTo(want);
    JsonNode d = ok("/api/v1/llm/dashboard?panels=pod.lora_adapters&adapter=sql" + window());
    assertThat(values(panel(d, "pod.lora_adapters"), "lora_adapter")).containsExactly("sql");
    assertThat(server.get("/api/v1/llm/dashboard/adapters?start=x").statusCode()).isEqualTo(400);
  }

  @Test
  void inventoryListsEveryTargetWithItsEngine() throws Exception {
    JsonNode inv = ok("/api/v1/llm/inventory?time=" + end / 1000);
    Set<String> engines = new TreeSet<>();
    inv.path("engines").forEach(e -> engines.add(e.asText()));
    assertThat(engines).containsExactlyInAnyOrder("vllm", "sglang", "dcgm");
    Set<String> instances = new TreeSet<>();
    for (JsonNode t : inv.path("targets")) {
      instances.add(t.path("labels").path("instance").asText());
      assertThat(t.path("up").asBoolean()).isTrue();
      assertThat(t.path("families")).isNotEmpty();
      // each target's spelling: its engine and the prefix its names carry
      assertThat(t.path("spelling").asText())
          .isEqualTo(t.path("engine").asText() + "/" + t.path("prefix").asText());
      assertThat(t.has("lookalike")).isFalse();
    }
    Set<String> want = new TreeSet<>();
    fleet.inventory().forEach(i -> want.add(FleetScrape.targetLabels(i).get("instance")));
    assertThat(instances).isEqualTo(want);
  }

  @Test
  void catalogNamesCarryTheirEngine() throws Exception {
    JsonNode names = ok("/api/v1/llm/catalog/names");
    boolean found = false;
    for (JsonNode n : names) {
      if (n.path("name").asText().equals("vllm:num_requests_running")) {
        assertThat(n.path("engine").asText()).isEqualTo("vllm");
        assertThat(n.path("type").asText()).isEqualTo("gauge");
        found = true;
      }
    }
    assertThat(found).isTrue();
  }

  @Test
  void catalogFamiliesGiveTheEntryByReleaseWithItsCitation() throws Exception {
    JsonNode kv = null;
    for (JsonNode f : ok("/api/v1/llm/catalog/families")) {
      if (f.path("name").asText().equals("vllm:gpu_cache_usage_perc")) {
        kv = f;
      }
    }
    assertThat(kv).as("vllm:gpu_cache_usage_perc listed").isNotNull();
    assertThat(kv.path("engine").asText()).isEqualTo("vllm");
    assertThat(kv.path("type").asText()).isEqualTo("gauge");
    assertThat(kv.path("history").path("replacedBy").asText()).isEqualTo("kv_cache_usage_perc");
    assertThat(kv.path("history").path("removed").asText()).isEqualTo("0.12");
    assertThat(kv.path("cite").asText()).startsWith("vllm.md");

    // found under any of the engine's spellings, answered in the default one
    JsonNode ttft = ok("/api/v1/llm/catalog/families/ray_vllm:time_to_first_token_seconds");
    assertThat(ttft).hasSize(1);
    assertThat(ttft.get(0).path("name").asText()).isEqualTo("vllm:time_to_first_token_seconds");
    assertThat(ttft.get(0).path("unit").asText()).isEqualTo("seconds");
    assertThat(ttft.get(0).path("buckets")).hasSize(2);
    assertThat(ttft.get(0).path("spellings").toString()).contains("\"ray_vllm_time_to_first");

    HttpResponse<String> none = server.get("/api/v1/llm/catalog/families/vllm:no_such_family");
    assertThat(none.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(none.body()).path("errorType").asText()).isEqualTo("not_found");
  }

  @Test
  void exportsAreTheFilesThemselves() throws Exception {
    HttpResponse<String> g = server.get("/api/v1/llm/export/grafana?engines=vllm");
    assertThat(g.statusCode()).isEqualTo(200);
    assertThat(g.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
    JsonNode dash = JSON.readTree(g.body());
    assertThat(dash.path("uid").asText()).isEqualTo("infermon-llm");
    assertThat(g.body()).contains("vllm:").doesNotContain("sglang:");

    llm.set(
        new LlmConfig(
            new LlmConfig.Alerts(
                true,
                0.9,
                Duration.ofSeconds(3),
                Duration.ofMinutes(5),
                20,
                Duration.ofMinutes(7),
                0.1,
                Duration.ofMinutes(20),
                7),
            LlmConfig.DEFAULT_QUANTILES,
            List.of(),
            new LlmConfig.Cost("EUR", java.util.Optional.of(4.5), java.util.Map.of())));
    try {
      // the cost panel's price variable defaults to llm.cost's default price
      JsonNode priced =
          JSON.readTree(server.get("/api/v1/llm/export/grafana?engines=vllm,dcgm").body());
      JsonNode price = null;
      for (JsonNode v : priced.path("templating").path("list")) {
        if (v.path("name").asText().equals("gpu_hour_price")) {
          price = v;
        }
      }
      assertThat(price).isNotNull();
      assertThat(price.path("current").path("value").asText()).isEqualTo("4.5");
      assertThat(price.path("label").asText()).isEqualTo("GPU-hour price (EUR)");
      HttpResponse<String> rules = server.get("/api/v1/llm/export/rules?engines=vllm,sglang");
      assertThat(rules.statusCode()).isEqualTo(200);
      JsonNode group =
          new com.fasterxml.jackson.dataformat.yaml.YAMLMapper()
              .readTree(rules.body())
              .path("groups")
              .get(0);
      assertThat(group.path("name").asText()).isEqualTo("infermon-llm");
      List<String> got = new ArrayList<>();
      for (JsonNode r : group.path("rules")) {
        got.add(r.path("alert").asText() + " for " + r.path("for").asText());
      }
      assertThat(got)
          .containsExactly(
              "LLMTimeToFirstTokenHigh for 5m",
              "LLMRequestsQueuedWhilePreempting for 7m",
              // vLLM's names include NVIDIA NIM's subset, which has no preemption counter
              "LLMRequestsWaitingForSlot for 7m",
              "LLMRequestFailuresHigh for 20m",
              "LLMRouterQueueGrowing for 7m");
      JsonNode rs = group.path("rules");
      // the configured quantile and threshold, on the engines' TTFT and the Dynamo frontend's
      assertThat(rs.get(0).path("expr").asText())
          .contains("(histogram_quantile(0.9, sum by (namespace, model_name, le) (sum by")
          .contains("histogram_quantile(0.9, sum by (namespace, model_name, le) (label_replace(")
          .doesNotContain("0.95")
          .doesNotContain("> 1 ")
          .endsWith("> 3");
      assertThat(rs.get(1).path("expr").asText()).contains("> 20)");
      // the configured ratio, then the configured minimum of failures over the 5-minute window
      assertThat(rs.get(3).path("expr").asText()).contains("> 0.1)").endsWith("* 300 >= 7");
    } finally {
      llm.set(LlmConfig.DEFAULT);
    }
    HttpResponse<String> pr =
        server.get("/api/v1/llm/export/prometheusrule?name=llm-alerts&namespace=monitoring");
    assertThat(pr.statusCode()).isEqualTo(200);
    assertThat(pr.body())
        .contains("kind: PrometheusRule")
        .contains("name: llm-alerts")
        .contains("namespace: monitoring");
    HttpResponse<String> bad = server.get("/api/v1/llm/export/rules?engines=mlc");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(bad.body()).path("error").asText())
        .startsWith("invalid parameter \"engines\"");
  }

  @Test
  void beforeTheStorageIsReadyTheDashboardIsUnavailableButTheCatalogAnswers() throws Exception {
    DashboardService s = dashboard.getAndSet(null);
    try {
      assertThat(server.get("/api/v1/llm/dashboard").statusCode()).isEqualTo(503);
      assertThat(server.get("/api/v1/llm/inventory").statusCode()).isEqualTo(503);
      assertThat(server.get("/api/v1/llm/catalog/names").statusCode()).isEqualTo(200);
    } finally {
      dashboard.set(s);
    }
  }
}
