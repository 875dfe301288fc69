package dev.infermon.web.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.capacity.CapacityService;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.efficiency.EfficiencyService;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.report.ReportService;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.web.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api/v1/llm/report} over a real TSDB holding one pod's request counter, one request a
 * second for an hour: the envelope and shape, the traffic, 400 naming a bad parameter or a model
 * without samples, and 503 before the storage is ready. What the report says about a fleet is the
 * llm module's {@code ReportTest}.
 */
class LlmReportApiTest {
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;
  static TestServer server;
  static final AtomicReference<ReportService> report = new AtomicReference<>();
  static long end;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(dir, EngineOptions.DEFAULTS, o -> o, b -> b.report(report::get));
    end = System.currentTimeMillis() / 60_000 * 60_000;
    Labels l =
        Labels.of(
            "__name__", "vllm:request_success_total",
            "finished_reason", "stop",
            "model_name", "m",
            "job", "vllm",
            "instance", "p:8000",
            "namespace", "ns",
            "pod", "p");
    for (int i = 240; i >= 0; i--) {
      long t = end - i * 15_000L;
      server.load(l, t, (240 - i) * 15.0);
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static void ready() {
    QueryBackend b = server.backend.get();
    InventoryService inventories = new InventoryService(Catalog.builtIn(), b);
    report.set(
        new ReportService(
            b,
            inventories,
            new DiagnosisService(b, inventories),
            new CapacityService(b, inventories),
            new EfficiencyService(b, inventories, () -> LlmConfig.Cost.NONE),
            () -> LlmConfig.Alerts.DEFAULT,
            List::of));
  }

  @Test
  void beforeTheStorageIsReadyItIsUnavailable() throws Exception {
    report.set(null);
    assertThat(server.get("/api/v1/llm/report").statusCode()).isEqualTo(503);
  }

  @Test
  void theReportHasTheModelsTrafficAndItsReasons() throws Exception {
    ready();
    HttpResponse<String> r = server.get("/api/v1/llm/report?window=30m&end=" + end / 1000);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode d = JSON.readTree(r.body()).get("data");
    assertThat(d.get("periodSeconds").asLong()).isEqualTo(600);
    assertThat(d.get("end").asDouble() - d.get("start").asDouble()).isEqualTo(1800.0);
    JsonNode m = d.get("models").get(0);
    assertThat(m.get("model").asText()).isEqualTo("m");
    assertThat(m.get("traffic").get("requests").asDouble()).isCloseTo(1800, within(1e-6));
    assertThat(m.get("traffic").get("meanRate").asDouble()).isCloseTo(1.0, within(1e-9));
    // no TTFT histogram: no worst period, and the TTFT objective says why it has no attainment
    assertThat(m.get("worstPeriods")).isEmpty();
    JsonNode ttft = m.get("slos").get(0);
    assertThat(ttft.get("source").asText()).isEqualTo("llm.alerts");
    assertThat(ttft.get("attainment").isNull()).isTrue();
    assertThat(ttft.get("reason").asText()).startsWith("no requests of model \"m\"");
    assertThat(m.get("slos").get(1).get("attainment").asDouble()).isEqualTo(1.0);
    // nor any signal efficiency reads (tokens, running requests, GPUs)
    assertThat(m.get("efficiency").isNull()).isTrue();
  }

  @Test
  void aBadParameterOrAModelWithoutSamplesIsBadDataNamingIt() throws Exception {
    ready();
    for (String[] c :
        new String[][] {
          {"window=soon", "window"},
          {"window=-1h", "window"},
          {"window=365d", "window"},
          {"worst=0", "worst"},
          {"worst=many", "worst"},
          {"end=yesterday", "end"},
          {"window=30m&model=other", "no samples for model \"other\""}
        }) {
      HttpResponse<String> r = server.get("/api/v1/llm/report?" + c[0]);
      assertThat(r.statusCode()).as(c[0] + ": " + r.body()).isEqualTo(400);
      JsonNode j = JSON.readTree(r.body());
      assertThat(j.get("errorType").asText()).isEqualTo("bad_data");
      assertThat(j.get("error").asText()).as(c[0]).contains(c[1]);
    }
  }
}
