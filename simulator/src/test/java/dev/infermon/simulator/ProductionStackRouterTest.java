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
}
