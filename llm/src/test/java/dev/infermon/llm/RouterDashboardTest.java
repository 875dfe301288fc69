package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardRequest;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.dashboard.EmptyReason;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Level;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.PanelResult;
import dev.infermon.llm.signals.Signal;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.RouterKind;
import dev.infermon.simulator.SglangPod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.model.EngineModel;
import dev.infermon.simulator.router.LlmdEpp;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The router level against the simulator's truth: a router in front of the simulated pods ({@code
 * --router production-stack|llm-d|smg|dynamo}) counts per pod what the pods were sent and times
 * what they served, and the engine panels read the same with or without it (production-stack's
 * per-backend {@code vllm:} gauges are not summed into them). Without a router, every router panel
 * says so.
 */
class RouterDashboardTest {
  private static final Duration RUN = Duration.ofMinutes(10);

  private static FleetConfig config(RouterKind router) {
    return FleetConfig.builder()
        .vllmPods(3)
        .legacyVllmPods(0)
        .sglangPods(2)
        .sglangGatewayPods(0)
        .prefillDecode(false)
        .router(router)
        .build();
  }

  /** Per pod, what it had been sent at each scrape (ms). */
  private static Map<Long, Map<String, Long>> sentAt(SimulatedFleet f) {
    Map<Long, Map<String, Long>> out = new TreeMap<>();
    f.run(
        RUN,
        s -> {
          Map<String, Long> now = new HashMap<>();
          for (InferencePod p : f.fleet.pods()) {
            now.put(p.info().name(), LlmdEpp.sent(p));
          }
          out.put(s.timeMillis(), now);
        });
    return out;
  }

  /**
   * SGLang Model Gateway's default duration buckets (smg metrics.rs start_prometheus @ 73da68ca).
   */
  private static final double[] SMG_BUCKETS = {
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0, 30.0, 45.0, 60.0,
    90.0, 120.0, 180.0, 240.0, 300.0, 480.0, 900.0, 1200.0, 1800.0, 2700.0, 3600.0, 5400.0, 7200.0
  };

  private static boolean behind(InferencePod p, RouterKind k) {
    return p instanceof VllmPod || (k == RouterKind.LLM_D && p instanceof SglangPod);
  }

  @ParameterizedTest
  @EnumSource(
      value = RouterKind.class,
      names = {"PRODUCTION_STACK", "LLM_D"})
  void requestsRoutedPerPodAreThePodsArrivals(RouterKind kind) {
    SimulatedFleet f = new SimulatedFleet(config(kind), false);
    Map<Long, Map<String, Long>> sent = sentAt(f);
    long now = f.now();
    // production-stack: arrivals over its 60 s stats window; llm-d: rate over the panel's 5 m
    long window = kind == RouterKind.LLM_D ? 300_000 : 60_000;
    Map<String, Double> routed =
        PanelValues.panel(f.backend, now, "router.routed", 0, Filters.NONE);
    Map<String, Double> expected = new TreeMap<>();
    for (InferencePod p : f.fleet.pods()) {
      if (behind(p, kind)) {
        String pod = p.info().name();
        expected.put(
            pod, (sent.get(now).get(pod) - sent.get(now - window).get(pod)) * 1000.0 / window);
      }
    }
    assertThat(routed.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    double total = 0;
    for (Map.Entry<String, Double> e : expected.entrySet()) {
      total += e.getValue();
      // rate() extrapolates over the window's first scrape interval: at most 15 s of 300
      double tolerance = kind == RouterKind.LLM_D ? 0.06 * e.getValue() + 1e-9 : 1e-9;
      assertThat(routed.get(e.getKey())).as(e.getKey()).isCloseTo(e.getValue(), within(tolerance));
    }
    assertThat(total).as("traffic").isGreaterThan(0.1);
  }

  @Test
  void productionStackInFlightIsTheEnginesRunningPlusQueued() {
    SimulatedFleet f = new SimulatedFleet(config(RouterKind.PRODUCTION_STACK), false);
    f.run(RUN);
    Map<String, Double> inFlight =
        PanelValues.panel(f.backend, f.now(), "router.in_flight", 0, Filters.NONE);
    Map<String, Double> expected = new TreeMap<>();
    for (InferencePod p : f.fleet.pods()) {
      if (p instanceof VllmPod) {
        double n = 0;
        for (EngineModel e : p.engines()) {
          n += e.state().running() + e.state().waiting() + e.state().transferring();
        }
        expected.put(p.info().name(), n);
      }
    }
    assertThat(inFlight).isEqualTo(expected);
  }

  @Test
  void llmdQueueIsEachEnginesWaitingQueueCountedOnceForBothGenerations() {
    SimulatedFleet f = new SimulatedFleet(config(RouterKind.LLM_D), false);
    f.run(RUN);
    Map<String, Double> queue =
        PanelValues.panel(f.backend, f.now(), "router.queue", 0, Filters.NONE);
    Map<String, Double> expected = new TreeMap<>();
    for (InferencePod p : f.fleet.pods()) {
      double n = 0;
      for (EngineModel e : p.engines()) {
        n += e.state().waiting();
      }
      expected.put(p.info().name(), n);
    }
    assertThat(queue).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(
      value = RouterKind.class,
      names = {"PRODUCTION_STACK", "LLM_D", "SMG", "DYNAMO"})
  void enginePanelsAreTheSameWithARouterInFront(RouterKind kind) {
    SimulatedFleet with = new SimulatedFleet(config(kind), false).run(RUN);
    SimulatedFleet without = new SimulatedFleet(config(RouterKind.NONE), false).run(RUN);
    for (Level level : List.of(Level.POD, Level.MODEL)) {
      for (Signal s : List.of(Signal.REQUESTS_RUNNING, Signal.REQUESTS_WAITING)) {
        Measure m = new Measure.Level(s);
        assertThat(PanelValues.at(with.backend, with.now(), m, level, Filters.NONE))
            .as(level + " " + s)
            .isEqualTo(PanelValues.at(without.backend, without.now(), m, level, Filters.NONE))
            .isNotEmpty();
      }
    }
  }

  /**
   * production-stack's router still writes V0's {@code vllm:num_requests_swapped} per backend; a V1
   * fleet's engines do not, so the scheduler panel writes no swapped query with the router in
   * front, as without it.
   */
  @Test
  void aGaugeOnlyTheRouterCopiesIsNotQueriedFromTheEngines() {
    SimulatedFleet with = new SimulatedFleet(config(RouterKind.PRODUCTION_STACK), false).run(RUN);
    SimulatedFleet without = new SimulatedFleet(config(RouterKind.NONE), false).run(RUN);
    assertThat(with.fleet.render(routerName(with)).orElseThrow())
        .contains("vllm:num_requests_swapped{");
    for (SimulatedFleet f : List.of(with, without)) {
      DashboardService service = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
      long now = f.now();
      PanelResult scheduler =
          service
              .render(
                  new DashboardRequest(
                      Filters.NONE, 0.95, now - 60_000, now, 15_000, "5m", List.of()))
              .stream()
              .filter(r -> r.panel().id().equals("pod.scheduler"))
              .findFirst()
              .orElseThrow();
      assertThat(scheduler.queries())
          .as("the scheduler's queries written")
          .extracting(q -> q.legend() + (q.promql() == null ? " not written" : " written"))
          .containsExactly(
              "{{pod}} running written", "{{pod}} waiting written", "{{pod}} swapped not written");
    }
  }

  private static String routerName(SimulatedFleet f) {
    return f.fleet.inventory().stream()
        .filter(p -> f.fleet.render(p.name()).orElse("").contains("vllm:healthy_pods_total"))
        .findFirst()
        .orElseThrow()
        .name();
  }

  @Test
  void smgInFlightIsEachSglangWorkersRequestsSentAndNotAnswered() {
    SimulatedFleet f = new SimulatedFleet(config(RouterKind.SMG), false);
    f.run(RUN);
    Map<String, Double> inFlight =
        PanelValues.panel(f.backend, f.now(), "router.in_flight", 0, Filters.NONE);
    Map<String, Double> expected = new TreeMap<>();
    for (InferencePod p : f.fleet.pods()) {
      if (p instanceof SglangPod) {
        double n = 0;
        for (EngineModel e : p.engines()) {
          n += e.state().running() + e.state().waiting() + e.state().transferring();
        }
        expected.put(p.info().name(), n);
      }
    }
    assertThat(expected).hasSize(2);
    assertThat(inFlight).isEqualTo(expected);
  }

  /** production-stack's buckets of vllm:request_latency_seconds (metrics_service/__init__.py). */
  private static final double[] PRODUCTION_STACK_BUCKETS = {
    0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0
  };

  /**
   * The panel's p95 lies in the bucket of the p95 of what the router timed: histogram_quantile
   * interpolates inside the bucket the rank falls in, and rate()'s extrapolation can move the rank
   * across one bound.
   */
  private static void inTheBucketOfTheTruth(
      Double panel, List<Double> timed, double[] buckets, String what) {
    List<Double> truth = new java.util.ArrayList<>(timed);
    assertThat(truth).as(what).hasSizeGreaterThan(20);
    java.util.Collections.sort(truth);
    double p95 = truth.get((int) Math.ceil(0.95 * truth.size()) - 1);
    int b = 0;
    while (b < buckets.length && buckets[b] < p95) {
      b++;
    }
    double lo = b < 2 ? 0 : buckets[b - 2];
    double hi = buckets[Math.min(b + 1, buckets.length - 1)];
    assertThat(panel).as(what + " p95 " + p95).isNotNull().isBetween(lo, hi);
  }

  private static Map<String, Integer> models(SimulatedFleet f, Class<?> engine) {
    Map<String, Integer> models = new TreeMap<>();
    for (InferencePod p : f.fleet.pods()) {
      if (engine.isInstance(p)) {
        models.merge(p.info().model(), 1, Integer::sum);
      }
    }
    return models;
  }

  @Test
  void smgLatencyQuantileFallsInTheBucketOfTheTimedRequestsQuantile() {
    SimulatedFleet f = new SimulatedFleet(config(RouterKind.SMG), false);
    f.run(RUN);
    long now = f.now();
    Map<String, Double> latency =
        PanelValues.panel(f.backend, now, "router.latency", 0, Filters.NONE);
    Map<String, Integer> models = models(f, SglangPod.class);
    assertThat(latency.keySet()).containsExactlyInAnyOrderElementsOf(models.keySet());
    for (String model : models.keySet()) {
      inTheBucketOfTheTruth(
          latency.get(model),
          f.fleet.gatewayDurations(model, now - 300_000, now),
          SMG_BUCKETS,
          model);
    }
  }

  /**
   * Under a backend filter a router-wide series is shown while the router fronts pods in scope: the
   * gateway's latency per model is the same under the SGLang filter as without it.
   */
  @Test
  void smgLatencyUnderTheSglangFilterIsTheGatewaysLatency() {
    SimulatedFleet f = new SimulatedFleet(config(RouterKind.SMG), false);
    f.run(RUN);
    Map<String, Double> all =
        PanelValues.panel(f.backend, f.now(), "router.latency", 0, Filters.NONE);
    Map<String, Double> sglang =
        PanelValues.panel(
            f.backend, f.now(), "router.latency", 0, Filters.of(Map.of("backend", "sglang")));
    assertThat(all).isNotEmpty();
    assertThat(sglang).isEqualTo(all);
    assertThat(
            PanelValues.panel(
                f.backend, f.now(), "router.latency", 0, Filters.of(Map.of("backend", "vllm"))))
        .as("the gateway fronts no vLLM pod")
        .isEmpty();
  }

  @Test
  void productionStackLatencyIsWhatTheRequestsItRoutedTook() {
    SimulatedFleet f = new SimulatedFleet(config(RouterKind.PRODUCTION_STACK), false);
    f.run(RUN);
    long now = f.now();
    Map<String, Double> latency =
        PanelValues.panel(f.backend, now, "router.latency", 0, Filters.NONE);
    Map<String, Integer> models = models(f, VllmPod.class);
    assertThat(latency.keySet()).containsExactlyInAnyOrderElementsOf(models.keySet());
    for (String model : models.keySet()) {
      inTheBucketOfTheTruth(
          latency.get(model),
          f.fleet.routerDurations(RouterKind.PRODUCTION_STACK, model, now - 300_000, now),
          PRODUCTION_STACK_BUCKETS,
          model);
    }
  }

  /** llm-d's generalLatencyBuckets and its TTFT bounds (metrics.go, llm_d_router_metrics.go). */
  private static final double[] LLMD_LATENCY_BUCKETS = {
    0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30,
    45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600
  };

  private static final double[] LLMD_TTFT_BUCKETS = {
    0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30,
    45, 60, 120
  };

  @Test
  void llmdLatencyAndTtftAreWhatTheEppTimedForTheRequestsItRouted() {
    latencyAndTtftAreWhatTheRouterTimed(RouterKind.LLM_D, LLMD_LATENCY_BUCKETS, LLMD_TTFT_BUCKETS);
  }

  /**
   * Per model, the router level's latency and TTFT quantiles with {@code kind} in front fall in the
   * bucket of the durations and first-token times the router timed for the pods behind.
   */
  private static void latencyAndTtftAreWhatTheRouterTimed(
      RouterKind kind, double[] latencyBuckets, double[] ttftBuckets) {
    SimulatedFleet f = new SimulatedFleet(config(kind), false);
    f.run(RUN);
    long now = f.now();
    Map<String, Double> latency =
        PanelValues.panel(f.backend, now, "router.latency", 0, Filters.NONE);
    Map<String, Double> ttft = PanelValues.panel(f.backend, now, "router.ttft", 0, Filters.NONE);
    Map<String, Integer> models = models(f, InferencePod.class);
    assertThat(latency.keySet()).containsExactlyInAnyOrderElementsOf(models.keySet());
    assertThat(ttft.keySet()).containsExactlyInAnyOrderElementsOf(models.keySet());
    for (String model : models.keySet()) {
      inTheBucketOfTheTruth(
          latency.get(model),
          f.fleet.routerDurations(kind, model, now - 300_000, now),
          latencyBuckets,
          model + " latency");
      inTheBucketOfTheTruth(
          ttft.get(model),
          f.fleet.routerTtfts(kind, model, now - 300_000, now),
          ttftBuckets,
          model + " ttft");
    }
  }

  /** Only the prefill/decode pairs (a vLLM and an SGLang pair, one model), {@code router} ahead. */
  private static FleetConfig pairs(RouterKind router) {
    return config(router).toBuilder()
        .vllmPods(0)
        .dataParallelPods(0)
        .sglangPods(0)
        .prefillDecode(true)
        .build();
  }

  /**
   * llm-d's EPP in front of the prefill/decode pairs: the prefill/decode view's router TTFT is the
   * TTFT the EPP timed for the pairs' requests, each the prefill leg then the decode side's first
   * token, as the user saw it.
   */
  @Test
  void prefillDecodeTtftAtTheRouterIsWhatTheEppTimedForThePairs() {
    SimulatedFleet f = new SimulatedFleet(pairs(RouterKind.LLM_D), false);
    f.run(RUN);
    long now = f.now();
    Map<String, Double> ttft = PanelValues.panel(f.backend, now, "pd.ttft_router", 0, Filters.NONE);
    Map<String, Integer> models = models(f, InferencePod.class);
    assertThat(models).hasSize(1);
    assertThat(ttft.keySet()).containsExactlyInAnyOrderElementsOf(models.keySet());
    for (String model : models.keySet()) {
      inTheBucketOfTheTruth(
          ttft.get(model),
          f.fleet.routerTtfts(model, now - 300_000, now),
          LLMD_TTFT_BUCKETS,
          model + " pd ttft");
    }
  }

  /**
   * SGLang's model gateway in front of the SGLang pair (its PD router): the prefill/decode view's
   * router TTFT is the smg_pd_ttft_seconds it recorded, dispatch to the decode head, which SGLang
   * sends with the first token; the vLLM pair has no router in front. Its worker selections, one
   * per leg, are the routing decisions, by policy under the gateway's pod.
   */
  @Test
  void prefillDecodeTtftAtTheGatewayIsWhatItTimedForTheSglangPair() {
    SimulatedFleet f = new SimulatedFleet(pairs(RouterKind.SMG), false);
    Map<Long, Map<String, Long>> sent = sentAt(f);
    long now = f.now();
    Map<String, Double> ttft = PanelValues.panel(f.backend, now, "pd.ttft_router", 0, Filters.NONE);
    Map<String, Integer> models = models(f, SglangPod.class);
    assertThat(models).hasSize(1);
    assertThat(ttft.keySet()).containsExactlyInAnyOrderElementsOf(models.keySet());
    for (String model : models.keySet()) {
      inTheBucketOfTheTruth(
          ttft.get(model),
          f.fleet.gatewayPdTimes(model, now - 300_000, now, true),
          SMG_BUCKETS,
          model + " pd ttft");
      inTheBucketOfTheTruth(
          PanelValues.panel(f.backend, now, "router.latency", 0, Filters.NONE).get(model),
          f.fleet.gatewayDurations(model, now - 300_000, now),
          SMG_BUCKETS,
          model + " latency");
    }
    double selected = 0;
    for (InferencePod p : f.fleet.pods()) {
      if (p instanceof SglangPod) {
        String pod = p.info().name();
        selected += (sent.get(now).get(pod) - sent.get(now - 300_000).get(pod)) / 300.0;
      }
    }
    Map<String, Double> decisions =
        PanelValues.panel(f.backend, now, "router.decisions", 0, Filters.NONE);
    assertThat(decisions).containsOnlyKeys("smg-router-0"); // one decision value: cache_aware
    assertThat(selected).isGreaterThan(0.1);
    // rate() extrapolates over the window's first scrape interval: at most 15 s of 300
    assertThat(decisions.get("smg-router-0")).isCloseTo(selected, within(0.06 * selected));
  }

  /**
   * SGLang's model gateway in front of regular SGLang pods and an SGLang pair that serve one model:
   * its only TTFT is the PD router's smg_pd_ttft_seconds, per model with no pod label, about the
   * requests it sent to the pair. The regular pods' view (backend sglang) has no TTFT at the router
   * (the HTTP router times none: smg_router_ttft_seconds is the gRPC router's), and says so, rather
   * than the pair's TTFT under their model; the pair's view and the unfiltered one show it.
   */
  @Test
  void thePairsTtftAtTheGatewayIsNotTheRegularPodsTtft() {
    FleetConfig c =
        config(RouterKind.SMG).toBuilder()
            .vllmPods(0)
            .dataParallelPods(0)
            .prefillDecode(true)
            .build();
    SimulatedFleet f = new SimulatedFleet(c, false).run(RUN);
    Map<String, Integer> regular = new TreeMap<>();
    Map<String, Integer> pair = new TreeMap<>();
    for (InferencePod p : f.fleet.pods()) {
      if (p instanceof SglangPod) {
        (p.info().role().isEmpty() ? regular : pair).merge(p.info().model(), 1, Integer::sum);
      }
    }
    assertThat(regular.keySet())
        .as("the regular pods serve the pair's model")
        .containsAll(pair.keySet());
    assertThat(pair).isNotEmpty();
    long now = f.now();
    assertThat(PanelValues.panel(f.backend, now, "router.ttft", 0, Filters.NONE))
        .containsOnlyKeys(pair.keySet());
    assertThat(
            PanelValues.panel(
                f.backend, now, "router.ttft", 0, Filters.of(Map.of("backend", "sglang-pd"))))
        .containsOnlyKeys(pair.keySet());
    assertThat(
            PanelValues.panel(
                f.backend, now, "router.ttft", 0, Filters.of(Map.of("backend", "sglang"))))
        .as("the regular SGLang pods' view")
        .isEmpty();
    DashboardService service = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
    PanelResult p =
        service
            .render(
                new DashboardRequest(
                    Filters.of(Map.of("backend", "sglang")),
                    0.95,
                    now - 60_000,
                    now,
                    15_000,
                    "5m",
                    List.of("router.ttft")))
            .get(0);
    assertThat(p.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.reasons()).hasSize(1);
    EmptyReason r = p.reasons().get(0);
    assertThat(r.kind()).isEqualTo(EmptyReason.Kind.NOT_EXPOSED);
    assertThat(r.engine()).isEqualTo("smg");
    assertThat(r.message())
        .isEqualTo(
            "SGLang Model Gateway (smg, formerly sgl-router) exposes time to first token as"
                + " smg_router_ttft_seconds, which its targets do not have, and for prefill/decode"
                + " pairs as smg_pd_ttft_seconds, which is no pod's in this view: it is per model,"
                + " about the requests the router sent to the pairs");
  }

  /** production-stack fronts no prefill/decode pair: the view's router TTFT says so. */
  @Test
  void prefillDecodeTtftWithoutARouterInFrontOfThePairsSaysNoRouter() {
    FleetConfig c =
        config(RouterKind.NONE).toBuilder()
            .prefillDecode(true)
            .routers(List.of(RouterKind.PRODUCTION_STACK))
            .build();
    SimulatedFleet f = new SimulatedFleet(c, false).run(RUN);
    DashboardService service = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
    PanelResult p =
        service
            .render(
                new DashboardRequest(
                    Filters.NONE,
                    0.95,
                    f.now() - 60_000,
                    f.now(),
                    15_000,
                    "5m",
                    List.of("pd.ttft_router")))
            .get(0);
    assertThat(p.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(p.reasons())
        .extracting(EmptyReason::kind)
        .containsExactly(EmptyReason.Kind.NO_ROUTER);
    assertThat(p.reasons().get(0).message()).startsWith("no router in front of");
  }

  /**
   * production-stack in front of the vLLM pods and SGLang's model gateway in front of the SGLang
   * pods, which serve the same models: each router's latency is its own series, never merged with
   * the other's (their buckets differ).
   */
  @Test
  void twoRoutersInFrontOfOneModelEachShowTheirOwnLatency() {
    FleetConfig c =
        config(RouterKind.NONE).toBuilder()
            .routers(List.of(RouterKind.PRODUCTION_STACK, RouterKind.SMG))
            .build();
    SimulatedFleet f = new SimulatedFleet(c, false);
    f.run(RUN);
    long now = f.now();
    Map<String, Double> latency = new TreeMap<>();
    DashboardService service = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
    PanelResult p =
        service
            .render(
                new DashboardRequest(
                    Filters.NONE, 0.95, now - 60_000, now, 15_000, "5m", List.of("router.latency")))
            .get(0);
    for (PanelResult.SeriesData s : p.queries().get(0).series()) {
      double[] v = s.values();
      String key = s.labels().get("model_name") + " " + s.labels().get("router");
      assertThat(latency.put(key, v[v.length - 1])).as(key + " once").isNull();
    }
    Map<String, Integer> both = models(f, VllmPod.class);
    both.keySet().retainAll(models(f, SglangPod.class).keySet());
    assertThat(both).as("models served by both engines").isNotEmpty();
    for (String model : both.keySet()) {
      inTheBucketOfTheTruth(
          latency.get(model + " production-stack"),
          f.fleet.routerDurations(RouterKind.PRODUCTION_STACK, model, now - 300_000, now),
          PRODUCTION_STACK_BUCKETS,
          model + " production-stack");
      inTheBucketOfTheTruth(
          latency.get(model + " smg"),
          f.fleet.gatewayDurations(model, now - 300_000, now),
          SMG_BUCKETS,
          model + " smg");
    }
  }

  @Test
  void smgNamesTheSignalsItsHttpRouterDoesNotWrite() {
    Map<String, String> reasons = lacked(RouterKind.SMG, "smg");
    assertThat(reasons.keySet())
        .containsExactly("router.decisions", "router.queue", "router.routed", "router.ttft");
    assertThat(reasons.get("router.routed"))
        .isEqualTo(
            "SGLang Model Gateway (smg, formerly sgl-router) counts requests routed per pod only"
                + " under names it no longer writes: sgl_router_processed_requests_total, until"
                + " 2025-12-15 (sglang #15160, legacy RouterMetrics removed); its targets carry the"
                + " later names, which have none");
    assertThat(reasons.get("router.ttft")).contains("smg_router_ttft_seconds");
    assertThat(reasons.get("router.decisions")).contains("smg_worker_selection_total");
  }

  /**
   * llm-d's EPP in front of the vLLM pods and SGLang's model gateway in front of the SGLang pods:
   * each engine's view shows its own router's data, and only that router's reasons for what it
   * lacks.
   */
  @Test
  void eachEnginesViewShowsTheRouterInFrontOfItsPods() {
    FleetConfig c =
        config(RouterKind.NONE).toBuilder()
            .routers(List.of(RouterKind.LLM_D, RouterKind.SMG))
            .build();
    SimulatedFleet f = new SimulatedFleet(c, false).run(RUN);
    DashboardService service = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
    Map<String, String> seen = new TreeMap<>();
    for (String backend : List.of("vllm", "sglang")) {
      for (PanelResult p :
          service.render(
              new DashboardRequest(
                  Filters.of(Map.of("backend", backend)),
                  0.95,
                  f.now() - 60_000,
                  f.now(),
                  15_000,
                  "5m",
                  List.of("router.routed", "router.in_flight", "router.latency")))) {
        List<String> why = new java.util.ArrayList<>();
        p.reasons().forEach(r -> why.add(r.kind() + ":" + r.engine()));
        seen.put(
            backend + " " + p.panel().id(),
            (p.status() == PanelResult.Status.EMPTY ? "" : "data ") + String.join(",", why));
      }
    }
    assertThat(seen)
        .containsExactly(
            Map.entry("sglang router.in_flight", "data "),
            Map.entry("sglang router.latency", "data "),
            Map.entry("sglang router.routed", "NOT_EXPOSED:smg"),
            Map.entry("vllm router.in_flight", "NOT_EXPOSED:llm-d"),
            Map.entry("vllm router.latency", "data "),
            Map.entry("vllm router.routed", "data "));
  }

  @Test
  void withoutARouterEveryRouterPanelSaysSo() {
    SimulatedFleet f =
        new SimulatedFleet(config(RouterKind.NONE), false).run(Duration.ofMinutes(2));
    DashboardService service = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
    for (PanelResult p :
        service.render(DashboardRequest.of(Filters.NONE, f.now() - 60_000, f.now()))) {
      if (p.panel().queries().stream().allMatch(q -> q.measure() instanceof Measure.Router)) {
        assertThat(p.status()).as(p.panel().id()).isEqualTo(PanelResult.Status.EMPTY);
        if (p.panel().id().equals("pd.ttft_router")) {
          // the prefill/decode view's panels first say this fleet has no such deployment
          assertThat(p.reasons())
              .extracting(EmptyReason::kind)
              .containsExactly(EmptyReason.Kind.NO_TARGETS);
          continue;
        }
        assertThat(p.reasons())
            .as(p.panel().id())
            .extracting(EmptyReason::kind)
            .containsExactly(EmptyReason.Kind.NO_ROUTER);
        assertThat(p.reasons().get(0).message()).startsWith("no router in front of this model");
      }
    }
  }

  @Test
  void aRouterThatLacksASignalIsNamed() {
    SimulatedFleet f = new SimulatedFleet(config(RouterKind.PRODUCTION_STACK), false).run(RUN);
    DashboardService service = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
    PanelResult ttft =
        service
            .render(
                new DashboardRequest(
                    Filters.NONE,
                    0.95,
                    f.now() - 60_000,
                    f.now(),
                    15_000,
                    "5m",
                    List.of("router.ttft")))
            .get(0);
    assertThat(ttft.status()).isEqualTo(PanelResult.Status.EMPTY);
    assertThat(ttft.reasons())
        .extracting(EmptyReason::kind, EmptyReason::engine, EmptyReason::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                EmptyReason.Kind.NOT_EXPOSED,
                "production-stack",
                "vLLM production-stack router does not expose time to first token in any"
                    + " release"));
  }

  /**
   * NVIDIA Dynamo's frontend defaults (metrics.rs @ 0014908a): generate_log_buckets(1, 512, 10) of
   * the request duration, (0.001, 480, 18) of the TTFT.
   */
  private static final double[] DYNAMO_DURATION_BUCKETS = {0, 2, 4, 8, 16, 32, 64, 130, 260, 510};

  private static final double[] DYNAMO_TTFT_BUCKETS = {
    0, 0.0022, 0.0047, 0.01, 0.022, 0.047, 0.1, 0.22, 0.47, 1, 2.2, 4.7, 10, 22, 48, 100, 220, 480
  };

  /**
   * Dynamo's frontend in front of the vLLM and SGLang pods: its request duration and TTFT per model
   * are what it timed for the requests of the pods behind.
   */
  @Test
  void dynamoLatencyAndTtftAreWhatTheFrontendTimed() {
    latencyAndTtftAreWhatTheRouterTimed(
        RouterKind.DYNAMO, DYNAMO_DURATION_BUCKETS, DYNAMO_TTFT_BUCKETS);
  }

  /**
   * Dynamo's frontend counts a request in flight from its arrival to its end, under the frontend's
   * pod (its gauge is per model, no worker): every request the pods behind hold, queued ones too.
   * Its queue is those without a first token yet, here the engines' waiting and transferring.
   */
  @Test
  void dynamoInFlightIsEveryRequestThePodsBehindHold() {
    SimulatedFleet f = new SimulatedFleet(config(RouterKind.DYNAMO), false);
    f.run(RUN);
    double inFlight = 0;
    double queued = 0;
    for (InferencePod p : f.fleet.pods()) {
      for (EngineModel e : p.engines()) {
        inFlight += e.state().running() + e.state().waiting() + e.state().transferring();
        queued += e.state().waiting() + e.state().transferring();
      }
    }
    assertThat(inFlight).isPositive();
    assertThat(PanelValues.panel(f.backend, f.now(), "router.in_flight", 0, Filters.NONE))
        .isEqualTo(Map.of("dynamo-frontend-0", inFlight));
    assertThat(PanelValues.panel(f.backend, f.now(), "router.queue", 0, Filters.NONE))
        .isEqualTo(Map.of("dynamo-frontend-0", queued));
  }

  /**
   * Dynamo's frontend in front of both prefill/decode pairs (its disaggregated serving): the
   * prefill/decode view's router TTFT is the TTFT it timed, the prefill leg then the decode side's
   * first token, as the user saw it; its series are per model only, so it fronts the pairs through
   * the models they serve.
   */
  @Test
  void prefillDecodeTtftAtTheDynamoFrontendIsWhatItTimedForThePairs() {
    SimulatedFleet f = new SimulatedFleet(pairs(RouterKind.DYNAMO), false);
    f.run(RUN);
    long now = f.now();
    Map<String, Double> ttft = PanelValues.panel(f.backend, now, "pd.ttft_router", 0, Filters.NONE);
    Map<String, Integer> models = models(f, InferencePod.class);
    assertThat(models).hasSize(1);
    assertThat(ttft.keySet()).containsExactlyInAnyOrderElementsOf(models.keySet());
    for (String model : models.keySet()) {
      inTheBucketOfTheTruth(
          ttft.get(model),
          f.fleet.routerTtfts(RouterKind.DYNAMO, model, now - 300_000, now),
          DYNAMO_TTFT_BUCKETS,
          model + " pd ttft");
    }
  }

  /** What Dynamo's frontend does not measure is named with its name, as other routers' lacks. */
  @Test
  void dynamoNamesTheSignalsItsFrontendDoesNotWrite() {
    Map<String, String> reasons = lacked(RouterKind.DYNAMO, "dynamo");
    assertThat(reasons)
        .containsExactly(
            Map.entry(
                "router.decisions",
                "NVIDIA Dynamo frontend does not expose routing decisions in any release"),
            Map.entry(
                "router.routed",
                "NVIDIA Dynamo frontend does not expose requests routed per pod in any release"));
  }

  /**
   * The router panels left empty with {@code kind} in front of the pods, by id, each with its one
   * reason: NOT_EXPOSED, naming {@code router}.
   */
  private static Map<String, String> lacked(RouterKind kind, String router) {
    SimulatedFleet f = new SimulatedFleet(config(kind), false).run(RUN);
    DashboardService service = new DashboardService(QueryStack.of(f.backend), Catalog.builtIn());
    Map<String, String> reasons = new TreeMap<>();
    for (PanelResult p :
        service.render(
            new DashboardRequest(
                Filters.NONE,
                0.95,
                f.now() - 60_000,
                f.now(),
                15_000,
                "5m",
                List.of(
                    "router.routed",
                    "router.decisions",
                    "router.ttft",
                    "router.queue",
                    "router.in_flight",
                    "router.latency")))) {
      if (p.status() == PanelResult.Status.EMPTY) {
        assertThat(p.reasons()).as(p.panel().id()).hasSize(1);
        EmptyReason r = p.reasons().get(0);
        assertThat(r.kind()).isEqualTo(EmptyReason.Kind.NOT_EXPOSED);
        assertThat(r.engine()).isEqualTo(router);
        reasons.put(p.panel().id(), r.message());
      }
    }
    return reasons;
  }
}
