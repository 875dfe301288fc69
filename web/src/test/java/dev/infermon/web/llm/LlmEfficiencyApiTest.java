package dev.infermon.web.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.web.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api/v1/llm/efficiency} over a real TSDB holding one vLLM pod and its one GPU: the figures
 * as JSON, absent ones with their reason, and every bad parameter a 400 naming it.
 */
class LlmEfficiencyApiTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String H100 = "NVIDIA H100 80GB HBM3";
  @TempDir static Path dir;
  static TestServer server;
  static final AtomicReference<EfficiencyService> efficiency = new AtomicReference<>();
  static final AtomicReference<LlmConfig.Cost> cost =
      new AtomicReference<>(new LlmConfig.Cost("EUR", Optional.empty(), Map.of(H100, 3.6)));

  /** The window's start and end: ten minutes, whole minutes. */
  static long start;

  static long end;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServer.start(dir, EngineOptions.DEFAULTS, o -> o, b -> b.efficiency(efficiency::get));
    efficiency.set(
        new EfficiencyService(
            server.backend.get(),
            new InventoryService(Catalog.builtIn(), server.backend.get()),
            cost::get));
    end = System.currentTimeMillis() / 60_000 * 60_000;
    start = end - 600_000;
    Labels running = vllm("vllm:num_requests_running");
    Labels tokens = vllm("vllm:generation_tokens_total");
    Labels memory = gpu("DCGM_FI_DEV_FB_USED");
    Labels energy = gpu("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION");
    for (int i = 0; i <= 10; i++) {
      long t = start + i * 60_000L;
      // busy for the first five minutes, then no request runs
      server.load(
          running, t, i < 5 ? 3 : 0, tokens, t, 100.0 * i, memory, t, 1000, energy, t, 1e6 * i);
    }
  }

  static Labels vllm(String name) {
    return Labels.of(
        "__name__", name,
        "model_name", "m",
        "engine", "0",
        "job", "vllm",
        "instance", "p:8000",
        "namespace", "ns",
        "pod", "p",
        "workload_name", "w");
  }

  static Labels gpu(String name) {
    return Labels.of(
        "__name__", name,
        "gpu", "0",
        "UUID", "GPU-1",
        "modelName", H100,
        "job", "dcgm",
        "instance", "node:9400",
        "namespace", "ns",
        "pod", "p");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static JsonNode data(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode j = JSON.readTree(r.body());
    assertThat(j.get("status").asText()).isEqualTo("success");
    return j.get("data");
  }

  static String window() {
    return "start=" + start / 1000 + "&end=" + end / 1000 + "&step=60s";
  }

  @Test
  void theFiguresOfThePodItsModelAndItsWorkload() throws Exception {
    JsonNode d = data(server.get("/api/v1/llm/efficiency?" + window()));
    assertThat(d.get("currency").asText()).isEqualTo("EUR");
    assertThat(d.get("step").asDouble()).isEqualTo(60);
    assertThat(d.get("start").asDouble()).isEqualTo(start / 1000.0);
    for (String kind : new String[] {"models", "workloads", "pods"}) {
      assertThat(d.get(kind)).as(kind).hasSize(1);
      JsonNode g = d.get(kind).get(0);
      assertThat(g.get("pods").get(0).asText()).isEqualTo("ns/p");
      JsonNode f = g.get("figures");
      assertThat(f.get("generatedTokens").get("value").asDouble()).isEqualTo(1000);
      assertThat(f.get("gpuSeconds").get("value").asDouble()).isEqualTo(600);
      // running is 0 at minutes 5 to 10: six samples of one GPU for a minute each
      assertThat(f.get("idleGpuSeconds").get("value").asDouble()).isEqualTo(360);
      assertThat(f.get("energyJoules").get("value").asDouble()).isEqualTo(10_000);
      assertThat(f.get("tokensPerGpuSecond").get("value").asDouble())
          .isCloseTo(1000 / 600.0, within(1e-12));
      assertThat(f.get("tokensPerJoule").get("value").asDouble()).isCloseTo(0.1, within(1e-12));
      assertThat(f.get("joulesPerToken").get("value").asDouble()).isCloseTo(10, within(1e-12));
      assertThat(f.get("cost").get("value").asDouble()).isCloseTo(0.6, within(1e-12));
      assertThat(f.get("costPerMillionTokens").get("value").asDouble())
          .isCloseTo(600, within(1e-9));
      assertThat(g.get("gpuSecondsByGpuModel").get(H100).asDouble()).isEqualTo(600);
    }
    assertThat(d.get("models").get(0).get("labels").get("model_name").asText()).isEqualTo("m");
    assertThat(d.get("workloads").get(0).get("labels").get("workload_name").asText())
        .isEqualTo("w");
  }

  @Test
  void aFigureThatCannotBeComputedIsNullWithItsReason() throws Exception {
    LlmConfig.Cost before = cost.get();
    cost.set(LlmConfig.Cost.NONE);
    try {
      JsonNode f =
          data(server.get("/api/v1/llm/efficiency?" + window()))
              .get("models")
              .get(0)
              .get("figures");
      assertThat(f.get("cost").get("value").isNull()).isTrue();
      assertThat(f.get("cost").get("reason").asText())
          .isEqualTo("no GPU-hour price is configured (llm.cost.gpu_hour_prices)");
      assertThat(f.get("tokensPerGpuSecond").has("reason")).isFalse();
    } finally {
      cost.set(before);
    }
  }

  @Test
  void theModelAndWorkloadParametersScopeTheAnswer() throws Exception {
    assertThat(data(server.get("/api/v1/llm/efficiency?model=m&" + window())).get("pods"))
        .hasSize(1);
    assertThat(data(server.get("/api/v1/llm/efficiency?model=other&" + window())).get("pods"))
        .isEmpty();
    assertThat(data(server.get("/api/v1/llm/efficiency?workload=other&" + window())).get("models"))
        .isEmpty();
  }

  @Test
  void badParametersAre400NamingTheParameter() throws Exception {
    for (String[] c :
        new String[][] {
          {"start=200&end=100", "end", "end timestamp must be after start time"},
          {"start=x", "start", "cannot parse"},
          {"end=1e300", "end", "cannot parse"},
          {"step=0s", "step", "zero or negative query resolution step widths"},
          {"step=x", "step", "cannot parse"},
          {"start=0&end=86400&step=1s", "step", "the window holds 86400 steps"}
        }) {
      HttpResponse<String> r = server.get("/api/v1/llm/efficiency?" + c[0]);
      assertThat(r.statusCode()).as(c[0] + ": " + r.body()).isEqualTo(400);
      JsonNode body = JSON.readTree(r.body());
      assertThat(body.get("errorType").asText()).isEqualTo("bad_data");
      assertThat(body.get("error").asText())
          .as(c[0])
          .startsWith("invalid parameter \"" + c[1] + "\": " + c[2]);
    }
  }

  @Test
  void beforeTheStorageIsReadyTheAnswerIs503() throws Exception {
    EfficiencyService s = efficiency.getAndSet(null);
    try {
      assertThat(server.get("/api/v1/llm/efficiency").statusCode()).isEqualTo(503);
    } finally {
      efficiency.set(s);
    }
  }
}
