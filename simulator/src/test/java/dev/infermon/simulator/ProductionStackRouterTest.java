package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.model.EngineState;
import dev.infermon.simulator.router.ProductionStackRouter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The production-stack router in front of one model's vLLM pods counts what its engines count: the
 * same simulated requests, seen from in front.
 */
class ProductionStackRouterTest {
  private static final long T0 = 1_790_000_000_000L;

  private static Fleet threePods() {
    FleetConfig c =
        FleetConfig.builder()
            .vllmPods(3)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .build();
    return Fleet.create(c, T0);
  }

  private static List<VllmPod> vllm(Fleet fleet) {
    return fleet.pods().stream().map(VllmPod.class::cast).toList();
  }

  private static double now(Fleet fleet) {
    return fleet.nowMillis() / 1000.0;
  }

  private static long sent(VllmPod pod) {
    long n = 0;
    for (EngineModel e : pod.engines()) {
      EngineState s = e.state();
      n += e.finishedCount() + s.running() + s.waiting() + s.transferring();
    }
    return n;
  }

  @Test
  void perServerGaugesAreTheEnginesInFlightRequestsSeenFromInFront() {
    Fleet fleet = threePods();
    ProductionStackRouter router = new ProductionStackRouter(T0 / 1e3);
    fleet.setScenario(Scenario.KV_PRESSURE); // queues build up, so waiting is not zero
    boolean sawQueue = false;
    for (int i = 0; i < 6; i++) {
      fleet.advance(Duration.ofSeconds(90));
      Page page = PageChecker.strict(router.render(vllm(fleet), now(fleet)));
      for (VllmPod pod : vllm(fleet)) {
        String server = ProductionStackRouter.serverUrl(pod);
        EngineState s = pod.engines().get(0).state();
        int queued = s.waiting() + s.transferring();
        assertThat(page.value("vllm:num_decoding_requests", "server", server))
            .isEqualTo(s.running());
        assertThat(page.value("vllm:num_prefill_requests", "server", server)).isEqualTo(queued);
        assertThat(page.value("vllm:num_requests_running", "server", server))
            .isEqualTo(s.running() + queued);
        assertThat(page.value("vllm:healthy_pods_total", "server", server)).isEqualTo(1);
        sawQueue |= queued > 0;
      }
    }
    assertThat(sawQueue).isTrue();
  }

  @Test
  void incomingRequestsAreEveryRequestTheEnginesWereSentAndSurviveARestart() {
    Fleet fleet = threePods();
    String model = ModelProfile.LLAMA_8B.name();
    ProductionStackRouter router = new ProductionStackRouter(T0 / 1e3);
    fleet.advance(Duration.ofMinutes(5));
    Page before = PageChecker.strict(router.render(vllm(fleet), now(fleet)));
    long sentBefore = vllm(fleet).stream().mapToLong(ProductionStackRouterTest::sent).sum();
    assertThat(before.value("vllm:num_incoming_requests_total", "model", model))
        .isEqualTo(sentBefore)
        .isPositive();

    VllmPod restarted = vllm(fleet).get(1);
    long othersBefore = othersSent(fleet, restarted);
    fleet.setScenario(Scenario.POD_RESTART, restarted.info().name());
    Page down = PageChecker.strict(router.render(vllm(fleet), now(fleet)));
    assertThat(
            down.value(
                "vllm:healthy_pods_total", "server", ProductionStackRouter.serverUrl(restarted)))
        .isZero();
    fleet.advance(Duration.ofMinutes(5));
    Page after = PageChecker.strict(router.render(vllm(fleet), now(fleet)));
    assertThat(restarted.restarts()).isEqualTo(1);
    assertThat(
            after.value(
                "vllm:healthy_pods_total", "server", ProductionStackRouter.serverUrl(restarted)))
        .isEqualTo(1);
    // the restarted pod counts from zero again; the router's counter goes on
    assertThat(after.value("vllm:num_incoming_requests_total", "model", model))
        .isEqualTo(
            before.value("vllm:num_incoming_requests_total", "model", model)
                + (othersSent(fleet, restarted) - othersBefore)
                + sent(restarted));
  }

  private static long othersSent(Fleet fleet, VllmPod except) {
    return vllm(fleet).stream()
        .filter(p -> p != except)
        .mapToLong(ProductionStackRouterTest::sent)
        .sum();
  }

  @Test
  void qpsIsTheRequestsSentInTheLastWindowOverTheWindow() {
    Fleet fleet = threePods();
    ProductionStackRouter router = new ProductionStackRouter(T0 / 1e3);
    fleet.advance(Duration.ofMinutes(2));
    router.render(vllm(fleet), now(fleet));
    long[] start = vllm(fleet).stream().mapToLong(ProductionStackRouterTest::sent).toArray();
    fleet.advance(Duration.ofSeconds(60));
    Page page = PageChecker.strict(router.render(vllm(fleet), now(fleet)));
    double total = 0;
    for (int i = 0; i < 3; i++) {
      VllmPod pod = vllm(fleet).get(i);
      double qps = page.value("vllm:current_qps", "server", ProductionStackRouter.serverUrl(pod));
      assertThat(qps).isEqualTo((sent(pod) - start[i]) / 60.0);
      total += qps;
    }
    assertThat(total).isPositive();
  }

  @Test
  void familiesHaveTheRoutersNamesTypesAndLabels() {
    Fleet fleet = threePods();
    fleet.advance(Duration.ofMinutes(1));
    String text = new ProductionStackRouter(T0 / 1e3).render(vllm(fleet), now(fleet));
    Page page = PageChecker.strict(text);
    assertThat(text)
        .contains("# TYPE vllm:current_qps gauge\n")
        .contains("# TYPE vllm:healthy_pods_total gauge\n")
        .contains("# TYPE vllm:num_incoming_requests_total counter\n")
        .contains("# TYPE vllm:num_incoming_requests_created gauge\n")
        // declared, never set by metrics_router.py: HELP and TYPE with no samples
        .contains(
            "# TYPE vllm:num_requests_waiting gauge\n# HELP vllm:current_qps Current Queries Per Second\n");
    assertThat(page.family("vllm:num_requests_running").labelNames()).containsExactly("server");
    assertThat(page.family("vllm:num_incoming_requests_total").labelNames())
        .containsExactly("model");
  }

  /**
   * generate_latest() of the default registry: prometheus_client's own collectors first (registered
   * on import), the router's families, then metrics_router.py's psutil gauges, unlabelled, one
   * decimal.
   */
  @Test
  void theDefaultCollectorsComeFirstAndThePsutilGaugesLast() {
    Fleet fleet = threePods();
    ProductionStackRouter router = new ProductionStackRouter(T0 / 1e3);
    fleet.advance(Duration.ofMinutes(3));
    String text = router.render(vllm(fleet), now(fleet));
    PageChecker.strict(text);
    List<String> families = new java.util.ArrayList<>();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(?m)^# TYPE (\\S+) ").matcher(text);
    while (m.find()) {
      families.add(m.group(1));
    }
    assertThat(families.subList(0, 10))
        .containsExactly(
            "python_gc_objects_collected_total",
            "python_gc_objects_uncollectable_total",
            "python_gc_collections_total",
            "python_info",
            "process_virtual_memory_bytes",
            "process_resident_memory_bytes",
            "process_start_time_seconds",
            "process_cpu_seconds_total",
            "process_open_fds",
            "process_max_fds");
    assertThat(families.get(10)).isEqualTo("vllm:num_requests_running");
    assertThat(families.subList(families.size() - 3, families.size()))
        .containsExactly(
            "router_cpu_usage_percent", "router_memory_usage_percent", "router_disk_usage_percent");
    assertThat(text)
        .contains("python_info{implementation=\"CPython\",major=\"3\",minor=\"12\",")
        .contains("# HELP router_cpu_usage_percent CPU usage percent\n")
        .doesNotContain("router_cpu_usage_percent_created");
    for (String g :
        List.of(
            "router_cpu_usage_percent",
            "router_memory_usage_percent",
            "router_disk_usage_percent")) {
      java.util.regex.Matcher v =
          java.util.regex.Pattern.compile("(?m)^" + g + " ([0-9]+\\.[0-9])$").matcher(text);
      assertThat(v.find()).as(g).isTrue();
      assertThat(Double.parseDouble(v.group(1))).as(g).isBetween(0.0, 100.0);
    }
    // the router's process started with it, in floatToGoString's exponent form
    assertThat(text).contains("process_start_time_seconds 1.79e+09\n");
  }
}
