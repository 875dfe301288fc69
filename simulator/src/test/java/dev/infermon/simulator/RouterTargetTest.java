package dev.infermon.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.infermon.simulator.PageChecker.Page;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.router.LlmdEpp;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The router target of {@code simulate --router}: a page of the named router in front of the pods,
 * whose per-pod counts are what the pods were sent, listed last in the inventory.
 */
class RouterTargetTest {
  private static final long T0 = 1_790_000_000_000L;

  private static Fleet fleet(RouterKind router) {
    return Fleet.create(
        FleetConfig.builder()
            .vllmPods(2)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .router(router)
            .build(),
        T0);
  }

  @Test
  void llmdEppCountsEachPodsRequestsInBothGenerations() {
    Fleet fleet = fleet(RouterKind.LLM_D);
    PodInfo router = fleet.inventory().get(fleet.inventory().size() - 1);
    assertThat(router.name()).isEqualTo("llm-d-router-0");
    assertThat(router.targetLabels()).containsEntry("backend", "llm-d");
    fleet.advance(Duration.ofMinutes(5));
    Page page = PageChecker.strict(fleet.render(router.name()).orElseThrow());
    long total = 0;
    for (InferencePod p : fleet.pods()) {
      long sent = LlmdEpp.sent(p);
      total += sent;
      String pod = p.info().name();
      assertThat(page.value("llm_d_epp_scheduler_attempts_total", "endpoint_name", pod))
          .as(pod)
          .isEqualTo(sent);
      assertThat(page.value("inference_extension_scheduler_attempts_total", "pod_name", pod))
          .isEqualTo(sent);
      double waiting = p.engines().stream().mapToInt(e -> e.state().waiting()).sum();
      assertThat(page.value("llm_d_epp_per_endpoint_queue_size", "model_server_endpoint", pod))
          .isEqualTo(waiting);
    }
    assertThat(total).isPositive();
  }

  @Test
  void productionStackKnowsEachPodByTheAddressItIsScrapedAt() throws Exception {
    Fleet fleet = fleet(RouterKind.PRODUCTION_STACK);
    fleet.advance(Duration.ofMinutes(2));
    try (FleetServer server =
        FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, true))) {
      PodInfo router = fleet.inventory().get(fleet.inventory().size() - 1);
      Page page = PageChecker.strict(fleet.render(router.name()).orElseThrow());
      for (InferencePod p : fleet.pods()) {
        if (p instanceof VllmPod) {
          String url = "http://" + server.hostPort(p.info());
          assertThat(page.value("vllm:healthy_pods_total", "server", url)).isEqualTo(1);
        }
      }
    }
  }

  @Test
  void anUnknownRouterIsRefusedNamingTheKnownOnes() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> RouterKind.parse("envoy"))
        .withMessage(
            "unknown router \"envoy\" (one of none, production-stack, llm-d, smg, dynamo)");
    assertThat(RouterKind.parse("llm-d")).isEqualTo(RouterKind.LLM_D);
    assertThat(fleet(RouterKind.NONE).inventory())
        .extracting(PodInfo::name)
        .doesNotContain("production-stack-router-0", "llm-d-router-0");
  }

  @Test
  void severalRoutersEachFrontOnlyTheirEnginesPods() {
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder()
                .vllmPods(2)
                .legacyVllmPods(0)
                .sglangPods(2)
                .sglangGatewayPods(0)
                .prefillDecode(false)
                .routers(java.util.List.of(RouterKind.LLM_D, RouterKind.SMG))
                .build(),
            T0);
    int n = fleet.inventory().size();
    assertThat(fleet.inventory().subList(n - 2, n))
        .extracting(PodInfo::name)
        .containsExactly("llm-d-router-0", "smg-router-0");
    fleet.advance(Duration.ofMinutes(5));
    Page epp = PageChecker.strict(fleet.render("llm-d-router-0").orElseThrow());
    Page smg = PageChecker.strict(fleet.render("smg-router-0").orElseThrow());
    int vllm = 0;
    int sglang = 0;
    for (InferencePod p : fleet.pods()) {
      String pod = p.info().name();
      String url = "http://" + pod + ":8000";
      boolean hasEpp =
          epp.samples().stream()
              .anyMatch(
                  x -> pod.equals(x.label("endpoint_name")) || pod.equals(x.label("pod_name")));
      boolean hasSmg = smg.samples().stream().anyMatch(x -> url.equals(x.label("worker")));
      if (p instanceof VllmPod) {
        vllm++;
        assertThat(hasEpp).as(pod).isTrue();
        assertThat(hasSmg).as(pod).isFalse();
        assertThat(epp.value("llm_d_epp_scheduler_attempts_total", "endpoint_name", pod))
            .isEqualTo(LlmdEpp.sent(p));
      } else {
        sglang++;
        assertThat(hasEpp).as(pod).isFalse();
        assertThat(hasSmg).as(pod).isTrue();
      }
    }
    assertThat(vllm).isEqualTo(2);
    assertThat(sglang).isEqualTo(2);
    assertThat(fleet.gatewayDurations(fleet.pods().get(2).info().model(), T0, fleet.nowMillis()))
        .isNotEmpty();
  }

  @Test
  void aRouterListedBesideTheEnginesOwnRouterThatFrontsNothingIsRefused() {
    FleetConfig c =
        FleetConfig.builder()
            .vllmPods(2)
            .legacyVllmPods(0)
            .sglangPods(0)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .routers(java.util.List.of(RouterKind.PRODUCTION_STACK, RouterKind.LLM_D))
            .build();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fleet.create(c, T0))
        .withMessage(
            "router llm-d would front no pod of this fleet: a pod has one router in front,"
                + " production-stack for the vLLM pods and smg for the SGLang pods and pair when"
                + " listed, else dynamo when listed, else llm-d (routers: production-stack, llm-d)");
  }

  @Test
  void aListOfRoutersIsParsedAndBadNamesAreRefusedNamingTheKnownOnes() {
    assertThat(RouterKind.parseList("llm-d, smg"))
        .containsExactly(RouterKind.LLM_D, RouterKind.SMG);
    assertThat(RouterKind.parseList("none")).isEmpty();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> RouterKind.parseList("llm-d,envoy"))
        .withMessage(
            "unknown router \"envoy\" (one of none, production-stack, llm-d, smg, dynamo)");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> RouterKind.parseList("smg,smg"))
        .withMessage("router \"smg\" is listed twice: smg,smg");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> RouterKind.parseList("none,smg"))
        .withMessage("\"none\" cannot be listed beside a router: none,smg");
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                FleetConfig.builder()
                    .routers(java.util.List.of(RouterKind.SMG, RouterKind.SMG))
                    .build())
        .withMessageContaining("routers must list each router once");
    assertThat(RouterKind.forEngines(java.util.List.of(Backend.VLLM, Backend.SGLANG, Backend.TGI)))
        .containsExactly(RouterKind.LLM_D, RouterKind.SMG);
    assertThat(RouterKind.forEngines(java.util.List.of(Backend.TGI))).isEmpty();
  }

  /**
   * The fleet of {@code --engines all}: Dynamo's frontend fronts its own deployment's workers and
   * no other pod, llm-d's EPP and SGLang's gateway keep theirs; the workers serve the Dynamo
   * worker's page and carry the labels discovery gives the operator's pods.
   */
  @Test
  void dynamosFrontendFrontsItsOwnDeploymentAlone() {
    FleetConfig c =
        FleetConfig.builder()
            .engines(Backend.engines())
            .routers(java.util.List.of(RouterKind.LLM_D, RouterKind.SMG, RouterKind.DYNAMO))
            .build();
    Fleet fleet = Fleet.create(c, T0);
    java.util.List<InferencePod> pods = fleet.pods();
    java.util.Map<RouterKind, java.util.List<String>> behind = new java.util.TreeMap<>();
    for (RouterTarget r : RouterTarget.of(c, pods, T0 / 1000.0)) {
      behind.put(r.kind(), r.behind().stream().map(p -> p.info().name()).toList());
    }
    assertThat(behind.get(RouterKind.DYNAMO))
        .containsExactly("dynamo-vllm-qwen3-8b-worker-0", "dynamo-vllm-qwen3-8b-worker-1");
    assertThat(behind.get(RouterKind.LLM_D))
        .isNotEmpty()
        .allMatch(n -> n.startsWith("vllm-"), "vLLM pods and the vLLM pair");
    assertThat(behind.get(RouterKind.SMG)).isNotEmpty().allMatch(n -> n.startsWith("sglang-"));
    PodInfo worker =
        pods.stream()
            .map(InferencePod::info)
            .filter(i -> i.backend() == Backend.DYNAMO_WORKER)
            .findFirst()
            .orElseThrow();
    assertThat(worker.targetLabels()).doesNotContainKey("backend").containsEntry("role", "worker");
    assertThat(worker.model()).isEqualTo(FleetConfig.DYNAMO_MODEL);
    assertThat(fleet.render(worker.name()).orElseThrow()).startsWith("# HELP dynamo_component_");
    PodInfo frontend =
        fleet.inventory().stream()
            .filter(i -> i.name().equals("dynamo-frontend-0"))
            .findFirst()
            .orElseThrow();
    assertThat(frontend.targetLabels())
        .containsEntry("backend", "dynamo")
        .containsEntry("role", "frontend");
  }
}
