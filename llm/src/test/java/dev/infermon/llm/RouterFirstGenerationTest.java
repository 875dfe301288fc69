package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.llm.dashboard.Filters;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.RouterKind;
import dev.infermon.simulator.SglangPod;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.router.LlmdEpp;
import dev.infermon.simulator.router.SmgRouter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The router level over the routers' first-generation names, which the current ones replaced: a
 * SGLang Model Gateway of the sgl_router_* line (sgl-project/sglang sgl-router/src/metrics.rs @
 * 584506b4) and a Gateway API Inference Extension EPP of the inference_model_* line (GAIE
 * pkg/epp/metrics/metrics.go before #1567). Their pages are built at each scrape from the fleet's
 * state under those names, with those labels and buckets, in place of the simulated router's.
 */
class RouterFirstGenerationTest {
  private static final Duration RUN = Duration.ofMinutes(10);
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

  private static FleetConfig config(RouterKind router) {
    return FleetConfig.builder()
        .vllmPods(router == RouterKind.LLM_D ? 2 : 0)
        .dataParallelPods(0)
        .legacyVllmPods(0)
        .sglangPods(router == RouterKind.SMG ? 2 : 0)
        .sglangGatewayPods(0)
        .prefillDecode(false)
        .models(List.of(MODEL))
        .router(router)
        .build();
  }

  private static boolean router(PodInfo info) {
    return info.name().endsWith("-router-0");
  }

  /**
   * The gateway's page as sgl-router wrote it: sgl_router_requests_total by route,
   * sgl_router_processed_requests_total and sgl_router_running_requests by worker URL
   * (record_processed_request, set_running_requests), and the request duration with no labels and
   * start_prometheus's buckets to 240 s (the current page's observations: the first twenty bounds
   * are the same).
   */
  private static String sglRouterPage(SimulatedFleet f, String smgPage) {
    StringBuilder out = new StringBuilder();
    long all = 0;
    for (InferencePod p : sglangPods(f)) {
      all += LlmdEpp.sent(p);
    }
    // record_request(route): the requests the chat route handled
    out.append("# TYPE sgl_router_requests_total counter\n")
        .append("sgl_router_requests_total{route=\"/v1/chat/completions\"} ")
        .append(all)
        .append("\n\n");
    out.append(
            "# HELP sgl_router_processed_requests_total Total requests processed by each worker\n")
        .append("# TYPE sgl_router_processed_requests_total counter\n");
    for (InferencePod p : sglangPods(f)) {
      out.append("sgl_router_processed_requests_total{worker=\"")
          .append(SmgRouter.workerUrl(p))
          .append("\"} ")
          .append(LlmdEpp.sent(p))
          .append('\n');
    }
    out.append("\n# TYPE sgl_router_running_requests gauge\n");
    for (InferencePod p : sglangPods(f)) {
      out.append("sgl_router_running_requests{worker=\"")
          .append(SmgRouter.workerUrl(p))
          .append("\"} ")
          .append(load(p))
          .append('\n');
    }
    out.append('\n');
    List<String> histogram = new ArrayList<>();
    Pattern line =
        Pattern.compile(
            "smg_router_request_duration_seconds(_bucket|_sum|_count)\\{([^}]*)\\} (.+)");
    Pattern le = Pattern.compile("le=\"([^\"]+)\"");
    for (String l : smgPage.split("\n")) {
      Matcher m = line.matcher(l);
      if (!m.matches()) {
        continue;
      }
      String suffix = m.group(1);
      String labels = "";
      if (suffix.equals("_bucket")) {
        Matcher b = le.matcher(m.group(2));
        b.find();
        if (!b.group(1).equals("+Inf") && Double.parseDouble(b.group(1)) > 240) {
          continue;
        }
        labels = "{le=\"" + b.group(1) + "\"}";
      }
      histogram.add("sgl_router_request_duration_seconds" + suffix + labels + " " + m.group(3));
    }
    if (!histogram.isEmpty()) {
      out.append("# TYPE sgl_router_request_duration_seconds histogram\n");
      histogram.forEach(h -> out.append(h).append('\n'));
      out.append('\n');
    }
    return out.toString();
  }

  private static List<InferencePod> sglangPods(SimulatedFleet f) {
    return f.fleet.pods().stream().filter(p -> p instanceof SglangPod).toList();
  }

  private static int load(InferencePod p) {
    int n = 0;
    for (EngineModel e : p.engines()) {
      n += e.state().running() + e.state().waiting() + e.state().transferring();
    }
    return n;
  }

  /**
   * The EPP's page as GAIE's first line wrote it: inference_model_request_total and
   * inference_model_request_duration_seconds by model_name and target_model_name (MonitorRequest,
   * buckets 0.005 .. 3600 s, the ones its successor inference_objective_request_duration_seconds
   * kept), and inference_pool_per_pod_queue_size; no llm_d_epp_*, inference_objective_* or
   * inference_extension_* family.
   */
  private static String inferenceModelPage(String eppPage) {
    StringBuilder out = new StringBuilder();
    for (String l : eppPage.split("\n")) {
      String name = l.startsWith("# ") ? l.split(" ")[2] : l.split("[{ ]")[0];
      if (name.startsWith("inference_objective_request_total")
          || name.startsWith("inference_objective_request_duration_seconds")) {
        out.append(l.replace("inference_objective_", "inference_model_")).append('\n');
      } else if (name.startsWith("inference_pool_per_pod_queue_size")) {
        out.append(l).append('\n');
      }
    }
    return out.toString();
  }

  @Test
  void sglRouterGenerationFeedsRoutedInFlightAndLatency() {
    SimulatedFleet current = new SimulatedFleet(config(RouterKind.SMG), false).run(RUN);
    SimulatedFleet first = new SimulatedFleet(config(RouterKind.SMG), false);
    Map<Long, Map<String, Long>> sent = new TreeMap<>();
    Map<String, Integer> loadNow = new TreeMap<>();
    first.run(
        RUN,
        (info, page) -> {
          if (!router(info)) {
            return page;
          }
          Map<String, Long> now = new TreeMap<>();
          for (InferencePod p : sglangPods(first)) {
            now.put(p.info().name(), LlmdEpp.sent(p));
            loadNow.put(p.info().name(), load(p));
          }
          sent.put(first.now(), now);
          return sglRouterPage(first, page);
        });
    long now = first.now();
    assertThat(sent).containsKey(now);

    Map<String, Double> routed =
        PanelValues.panel(first.backend, now, "router.routed", 0, Filters.NONE);
    assertThat(routed.keySet()).containsExactlyInAnyOrderElementsOf(sent.get(now).keySet());
    for (String pod : routed.keySet()) {
      double expected = (sent.get(now).get(pod) - sent.get(now - 300_000).get(pod)) / 300.0;
      assertThat(expected).as(pod + " traffic").isPositive();
      // rate() extrapolates over the window's first scrape interval: at most 15 s of 300
      assertThat(routed.get(pod)).as(pod).isCloseTo(expected, within(0.06 * expected));
    }

    Map<String, Double> inFlight =
        PanelValues.panel(first.backend, now, "router.in_flight", 0, Filters.NONE);
    Map<String, Double> expectedLoad = new TreeMap<>();
    loadNow.forEach((pod, n) -> expectedLoad.put(pod, (double) n));
    assertThat(inFlight).isEqualTo(expectedLoad);

    // the same observations in the older family: the same quantile, under no model
    Map<String, Double> latencyNow =
        PanelValues.panel(current.backend, now, "router.latency", 0, Filters.NONE);
    Map<String, Double> latencyFirst =
        PanelValues.panel(first.backend, now, "router.latency", 0, Filters.NONE);
    assertThat(latencyNow).containsOnlyKeys(MODEL);
    assertThat(latencyFirst.values())
        .singleElement()
        .satisfies(v -> assertThat(v).isCloseTo(latencyNow.get(MODEL), within(1e-9)));
  }

  @Test
  void inferenceModelGenerationFeedsLatencyAndQueue() {
    SimulatedFleet current = new SimulatedFleet(config(RouterKind.LLM_D), false).run(RUN);
    SimulatedFleet first =
        new SimulatedFleet(config(RouterKind.LLM_D), false)
            .run(RUN, (info, page) -> router(info) ? inferenceModelPage(page) : page);
    long now = first.now();
    for (String id : List.of("router.latency", "router.queue")) {
      Map<String, Double> expected = PanelValues.panel(current.backend, now, id, 0, Filters.NONE);
      assertThat(expected).as(id).isNotEmpty();
      assertThat(PanelValues.panel(first.backend, now, id, 0, Filters.NONE))
          .as(id)
          .isEqualTo(expected);
    }
  }
}
