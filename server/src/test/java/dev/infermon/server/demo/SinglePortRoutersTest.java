package dev.infermon.server.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.ConfigLoader;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.server.cli.SimulateCommand;
import dev.infermon.simulator.Backend;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.RouterKind;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.tsdb.Tsdb;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code simulate --single-port} with production-stack's router in front of the vLLM pods and
 * SGLang's model gateway in front of the SGLang pods, scraped with the configuration {@code
 * simulate --single-port --print-prometheus-config} prints: every target is on the one port, and
 * the router panels' per-pod joins must still find one pod per router series. With every pod's
 * {@code instance} the shared address, the join on {@code instance} had duplicates and the panels
 * were a query error.
 */
class SinglePortRoutersTest {
  private static final long T0 = 1_780_000_000_000L;
  private static final long END = T0 + Duration.ofMinutes(10).toMillis();
  private static final String[] FLEET = {
    "--vllm-pods",
    "2",
    "--legacy-vllm-pods",
    "0",
    "--data-parallel-pods",
    "0",
    "--sglang-pods",
    "2",
    "--sglang-gateway-pods",
    "0",
    "--no-pd",
    "--router",
    "production-stack,smg"
  };

  @TempDir static Path dir;
  private static Tsdb tsdb;
  private static Fleet fleet;
  private static final Map<String, PanelResult> panels = new HashMap<>();

  @BeforeAll
  static void backfillAndRender() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    String yaml = printed(port);
    fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(2)
                .legacyVllmPods(0)
                .dataParallelPods(0)
                .sglangPods(2)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .routers(List.of(RouterKind.PRODUCTION_STACK, RouterKind.SMG))
                .build(),
            T0);
    tsdb = Tsdb.open(dir.resolve("data"));
    try (FleetServer server =
        FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", port, false))) {
      List<ScrapeConfig> configs = ConfigLoader.create().parse(yaml, "fleet.yml").scrapeConfigs();
      new FleetBackfill(
              fleet,
              server,
              configs,
              tsdb,
              Duration.ofSeconds(15),
              new PrintWriter(Writer.nullWriter()))
          .run(END, () -> 0);
    }
    DashboardService s =
        new DashboardService(
            new EmbeddedQueryBackend(tsdb, new Engine(EngineOptions.DEFAULTS)), Catalog.builtIn());
    for (PanelResult p : s.render(DashboardRequest.of(Filters.NONE, END - 600_000, END))) {
      panels.put(p.panel().id(), p);
    }
  }

  /** What {@code simulate --single-port --print-prometheus-config} prints for the fleet. */
  private static String printed(int port) {
    List<String> args = new java.util.ArrayList<>(List.of(FLEET));
    args.addAll(
        List.of("--single-port", "--listen", "127.0.0.1:" + port, "--print-prometheus-config"));
    StringWriter out = new StringWriter();
    CommandLine cl = new CommandLine(new SimulateCommand());
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(Writer.nullWriter()));
    assertThat(cl.execute(args.toArray(String[]::new))).isZero();
    return out.toString();
  }

  @AfterAll
  static void close() {
    if (tsdb != null) {
      tsdb.close();
    }
  }

  @Test
  void perPodRouterPanelsNameEveryPodBehindARouter() {
    Set<String> behind = new HashSet<>();
    for (PodInfo p : fleet.inventory()) {
      if (p.backend() == Backend.VLLM || p.backend() == Backend.SGLANG) {
        behind.add(p.name());
      }
    }
    assertThat(behind).hasSize(4);
    for (String id : List.of("router.routed", "router.in_flight")) {
      PanelResult p = panels.get(id);
      assertThat(p.reasons())
          .as(id)
          .extracting(EmptyReason::kind)
          .doesNotContain(EmptyReason.Kind.QUERY_ERROR);
      assertThat(p.status()).as(id).isNotEqualTo(PanelResult.Status.EMPTY);
      Set<String> pods = new HashSet<>();
      for (PanelResult.QueryData q : p.queries()) {
        q.series().forEach(series -> pods.add(series.labels().get("pod")));
      }
      pods.remove(null);
      // routed per pod is production-stack's; in flight both routers' (smg's worker load)
      assertThat(pods).as(id).isNotEmpty().isSubsetOf(behind);
    }
    Set<String> inFlight = new HashSet<>();
    for (PanelResult.QueryData q : panels.get("router.in_flight").queries()) {
      q.series().forEach(series -> inFlight.add(series.labels().get("pod")));
    }
    assertThat(inFlight).as("both routers name their own pods").containsAll(behind);
  }
}
