package dev.infermon.server.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.infermon.config.ConfigLoader;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.Vector;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.InferencePod;
import dev.infermon.simulator.ModelProfile;
import dev.infermon.simulator.Scenario;
import dev.infermon.simulator.SglangPod;
import dev.infermon.simulator.VllmPod;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.http.InventoryFormats;
import dev.infermon.tsdb.Tsdb;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator's scenarios as the diagnosis will see them: through the demo's backfill (the scrape
 * pipeline) into a TSDB, then PromQL on the embedded engine. The simulator's own {@code
 * ScenarioInvariantsTest} checks the same effects on the model's state; this one proves they
 * survive exposition, scraping, storage and query, with the metric names the pages really use.
 *
 * <p>One fleet of three vLLM pods of one model and one SGLang pod; after a healthy quarter hour
 * each vLLM pod gets its own scenario for {@link #WINDOW}. Ground truth for the token totals is
 * read from the simulator's model at the window's two ends.
 */
class ScenarioInvariantsTest {
  /** Fixed, so the daily load cycle and the seed give the same history on every run. */
  private static final long T0 = 1_789_999_995_000L;

  private static final Duration STEP = Duration.ofSeconds(15);
  private static final Duration WARMUP = Duration.ofMinutes(15);
  private static final Duration WINDOW = Duration.ofMinutes(30);
  private static final String W = "30m";

  private static final long START = T0 + WARMUP.toMillis(); // the scenarios begin
  private static final long END = START + WINDOW.toMillis(); // every query is evaluated here

  /** vLLM pod index in the fleet → its scenario; swap two to see the assertions fail. */
  private static final Scenario[] VLLM_SCENARIOS = {
    Scenario.HEALTHY, Scenario.SATURATED, Scenario.KV_PRESSURE
  };

  @TempDir static Path dir;

  private static Tsdb tsdb;
  private static QueryBackend promql;
  private static final Map<Scenario, String> podOf = new LinkedHashMap<>();
  private static final List<String> vllmPods = new ArrayList<>();
  private static String sglangPod;

  /** The model's token totals per pod at the window's start and end. */
  private static final Map<String, long[]> truthAtStart = new LinkedHashMap<>();

  private static final Map<String, long[]> truthAtEnd = new LinkedHashMap<>();

  @BeforeAll
  static void backfillTheFleet() throws Exception {
    FleetConfig config =
        FleetConfig.builder()
            .vllmPods(VLLM_SCENARIOS.length)
            .dataParallelPods(0)
            .legacyVllmPods(0)
            .sglangPods(1)
            .sglangTensorParallel(1)
            .sglangGatewayPods(0)
            .prefillDecode(false)
            .models(List.of(ModelProfile.LLAMA_8B.name()))
            .build();
    Fleet fleet = Fleet.create(config, T0);
    tsdb = Tsdb.open(dir.resolve("data"));
    promql = new EmbeddedQueryBackend(tsdb, new Engine(EngineOptions.DEFAULTS));
    try (FleetServer server =
        FleetServer.start(fleet, new FleetServer.Options("127.0.0.1", 0, false))) {
      String yaml =
          InventoryFormats.prometheusYaml(
              fleet.inventory(), server::hostPort, server::metricsPath, (int) STEP.toSeconds());
      List<ScrapeConfig> scrapeConfigs =
          ConfigLoader.create().parse(yaml, "fleet.yml").scrapeConfigs();
      FleetBackfill backfill =
          new FleetBackfill(
              fleet, server, scrapeConfigs, tsdb, STEP, new PrintWriter(Writer.nullWriter()));
      backfill.run(START, () -> 0); // no wall clock to catch up with
      int v = 0;
      for (InferencePod p : fleet.pods()) {
        if (p instanceof VllmPod) {
          Scenario s = VLLM_SCENARIOS[v++];
          fleet.setScenario(s, p.info().name());
          podOf.put(s, p.info().name());
          vllmPods.add(p.info().name());
        } else if (p instanceof SglangPod) {
          sglangPod = p.info().name();
        }
      }
      assertThat(fleet.nowMillis()).isEqualTo(START);
      record(fleet, truthAtStart);
      backfill.run(END, () -> 0);
      assertThat(fleet.nowMillis()).isEqualTo(END);
      record(fleet, truthAtEnd);
    }
  }

  @AfterAll
  static void closeTheTsdb() {
    if (tsdb != null) {
      tsdb.close();
    }
  }

  /**
   * Per pod {finished requests' output tokens, tokens of requests still in the engine}: vLLM counts
   * generation tokens per step, so its counter is the first plus the second; SGLang counts them
   * when a request finishes, so its counter is the first alone.
   */
  private static void record(Fleet fleet, Map<String, long[]> into) {
    for (InferencePod p : fleet.pods()) {
      long inFlight = p.engines().get(0).generatedInFlight();
      if (p instanceof VllmPod) {
        double finished = ((VllmPod) p).metrics(0).requestGenerationTokens().sum();
        into.put(p.info().name(), new long[] {Math.round(finished), inFlight});
      } else {
        into.put(p.info().name(), new long[] {((SglangPod) p).metrics().generationTokens(), 0});
      }
    }
  }

  // ---------------------------------------------------------------- healthy

  @Test
  void healthyNeitherQueuesNorFillsTheCacheNorPreempts() {
    String pod = podOf.get(Scenario.HEALTHY);
    assertThat(value("max_over_time(vllm:num_requests_waiting{pod=\"%s\"}[" + W + "])", pod))
        .as("most requests waiting at once")
        .isLessThan(5);
    assertThat(value("max_over_time(vllm:kv_cache_usage_perc{pod=\"%s\"}[" + W + "])", pod))
        .as("highest KV usage")
        .isLessThan(0.5);
    assertThat(value("sum(increase(vllm:num_preemptions_total{pod=\"%s\"}[" + W + "]))", pod))
        .as("preemptions")
        .isZero();
    assertThat(ttftP95(pod)).as("TTFT p95, seconds").isLessThan(1.0);
  }

  // ---------------------------------------------------------------- saturated

  @Test
  void saturatedQueueGrowsAndTtftRises() {
    String pod = podOf.get(Scenario.SATURATED);
    String waiting = "avg_over_time(vllm:num_requests_waiting{pod=\"%s\"}[5m])";
    double early = valueAt(waiting, START + Duration.ofMinutes(5).toMillis(), pod);
    double late = valueAt(waiting, END, pod);
    assertThat(early).as("waiting, first 5 minutes").isGreaterThan(10);
    // arrivals outrun service until clients give up (300 s), so the queue keeps growing
    assertThat(late).as("waiting, last 5 minutes").isGreaterThan(early * 2);

    double healthy = ttftP95(podOf.get(Scenario.HEALTHY));
    assertThat(ttftP95(pod)).as("TTFT p95, seconds").isGreaterThan(5).isGreaterThan(healthy * 10);
  }

  // ---------------------------------------------------------------- kv-pressure

  @Test
  void kvPressureKeepsTheCacheNearlyFullAndPreempts() {
    String pod = podOf.get(Scenario.KV_PRESSURE);
    // after 5 minutes of pressure; a preemption frees a request's blocks for an instant
    assertThat(value("quantile_over_time(0.5, vllm:kv_cache_usage_perc{pod=\"%s\"}[25m])", pod))
        .as("median KV usage")
        .isGreaterThan(0.9);
    assertThat(
            value("avg_over_time((vllm:kv_cache_usage_perc{pod=\"%s\"} > bool 0.9)[25m:15s])", pod))
        .as("share of samples with KV usage above 0.9")
        .isGreaterThanOrEqualTo(0.9);
    assertThat(value("sum(increase(vllm:num_preemptions_total{pod=\"%s\"}[" + W + "]))", pod))
        .as("preemptions")
        .isGreaterThan(100);
  }

  // ---------------------------------------------------------------- totals

  @Test
  void vllmGenerationTokensAreTheFinishedOutputsPlusThoseInFlight() {
    for (String pod : vllmPods) {
      long[] s = truthAtStart.get(pod);
      long[] e = truthAtEnd.get(pod);
      long finished = e[0] - s[0];
      double counted = counterDelta("vllm:generation_tokens_total", pod);
      assertThat(finished).as(pod + ": outputs finished in the window").isPositive();
      // tokens of requests running at the start were counted before it, those running at the end
      // already: the counter moves by the finished outputs within these in-flight amounts
      assertThat(counted)
          .as(pod + ": generation tokens counted in the window")
          .isBetween((double) finished - s[1], (double) finished + e[1])
          .isEqualTo((double) (finished + e[1] - s[1]));
      assertIncreaseExtrapolates("vllm:generation_tokens_total", pod);
    }
  }

  @Test
  void sglangGenerationTokensAreTheFinishedOutputs() {
    long finished = truthAtEnd.get(sglangPod)[0] - truthAtStart.get(sglangPod)[0];
    double counted = counterDelta("sglang:generation_tokens_total", sglangPod);
    assertThat(finished).as("outputs finished in the window").isPositive();
    assertThat(counted).as("generation tokens counted in the window").isEqualTo((double) finished);
    assertIncreaseExtrapolates("sglang:generation_tokens_total", sglangPod);
  }

  /** The counter's exact change over the window, from its samples at the window's two ends. */
  private static double counterDelta(String counter, String pod) {
    String sel = counter + "{pod=\"%s\"}";
    return value("sum(" + sel + ") - sum(" + sel + " offset " + W + ")", pod, pod);
  }

  /**
   * {@code increase} sees the samples in {@code (END - 30m, END]}: 120 samples 15 s apart, whose
   * change spans 29m45s. The gap to the window's start (15 s) is below 1.1 times the average
   * interval and the counter would reach zero much further back, so Prometheus's {@code
   * extrapolatedRate} stretches that change to the full 30 minutes.
   */
  private static void assertIncreaseExtrapolates(String counter, String pod) {
    long window = WINDOW.toMillis();
    long sampled = window - STEP.toMillis();
    String sel = counter + "{pod=\"%s\"}";
    double inWindow =
        value("sum(" + sel + ") - sum(" + sel + " offset " + sampled / 1000 + "s)", pod, pod);
    double expected = inWindow * window / sampled;
    assertThat(value("sum(increase(" + sel + "[" + W + "]))", pod))
        .as(pod + ": increase of " + counter)
        .isCloseTo(expected, within(expected * 1e-9));
  }

  // ---------------------------------------------------------------- queries

  private static double ttftP95(String pod) {
    return value(
        "histogram_quantile(0.95, sum by (le) "
            + "(rate(vllm:time_to_first_token_seconds_bucket{pod=\"%s\"}[5m])))",
        pod);
  }

  private static double value(String query, Object... args) {
    return valueAt(query, END, args);
  }

  /** The one sample an instant query returns at {@code timeMs}; fails on none or several. */
  private static double valueAt(String query, long timeMs, Object... args) {
    String q = String.format(query, args);
    Vector v = (Vector) promql.instantQuery(q, timeMs).value();
    assertThat(v.samples()).as("result of " + q).hasSize(1);
    return v.samples().get(0).value();
  }
}
