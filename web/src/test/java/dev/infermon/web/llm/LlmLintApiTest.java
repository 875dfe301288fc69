package dev.infermon.web.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.lint.LintService;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.slo.SloService;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.web.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api/v1/llm/lint}, {@code /diagnosis} and {@code /slo} over a real TSDB: the envelope, the
 * stored reference, form-posted rule files, and the SLO panel read from recorded series; the
 * services over the server's backend, sharing one inventory service as {@code serve} wires them.
 */
class LlmLintApiTest {
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;
  static TestServer server;
  static final AtomicReference<LintService> lint = new AtomicReference<>();
  static final AtomicReference<DiagnosisService> diagnosis = new AtomicReference<>();
  static final AtomicReference<SloService> slo = new AtomicReference<>();

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServer.start(
            dir,
            EngineOptions.DEFAULTS,
            o -> o,
            b -> b.lint(lint::get).diagnosis(diagnosis::get).slo(slo::get));
    InventoryService inventories = new InventoryService(Catalog.builtIn(), server.backend.get());
    lint.set(new LintService(inventories));
    diagnosis.set(new DiagnosisService(server.backend.get(), inventories));
    slo.set(new SloService(server.backend.get()));
    long now = System.currentTimeMillis();
    Labels running =
        Labels.of(
            "__name__", "vllm:num_requests_running",
            "model_name", "m",
            "engine", "0",
            "job", "vllm",
            "instance", "p:8000",
            "namespace", "ns",
            "pod", "p");
    Labels objective =
        Labels.of(
            "__name__", "slo:objective",
            "slo", "m-ttft",
            "model_name", "m",
            "sli", "ttft",
            "window", "30d",
            "threshold_seconds", "2.5");
    Labels ratio =
        Labels.of(
            "__name__",
            "slo:error_ratio:rate5m",
            "slo",
            "m-ttft",
            "model_name",
            "m",
            "sli",
            "ttft");
    Labels ratio1h =
        Labels.of(
            "__name__",
            "slo:error_ratio:rate1h",
            "slo",
            "m-ttft",
            "model_name",
            "m",
            "sli",
            "ttft");
    for (int i = 10; i >= 0; i--) {
      long t = now - i * 60_000L;
      server.load(running, t, 3, objective, t, 0.95, ratio, t, 0.02, ratio1h, t, 0.1);
    }
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

  @Test
  void lintChecksExpressionsAgainstWhatIsStored() throws Exception {
    JsonNode d =
        data(
            server.get("/api/v1/llm/lint?expr=" + TestServer.enc("sum(vllm:num_request_running)")));
    assertThat(d.get("reference").asText()).isEqualTo("stored (1 targets)");
    JsonNode f = d.get("findings").get(0);
    assertThat(f.get("check").asText()).isEqualTo("unknown-metric");
    assertThat(f.get("fix").asText()).isEqualTo("did you mean vllm:num_requests_running?");
    assertThat(f.get("location").get("column").asInt()).isEqualTo(5);
  }

  @Test
  void lintTakesAPostedRuleFile() throws Exception {
    String rules =
        "groups:\n  - name: g\n    rules:\n      - alert: A\n"
            + "        expr: rate(vllm:num_requests_running[5m]) > 1\n";
    JsonNode d = data(server.postForm("/api/v1/llm/lint", "rules", rules, "name", "a.yml"));
    JsonNode f = d.get("findings").get(0);
    assertThat(f.get("check").asText()).isEqualTo("rate-on-gauge");
    assertThat(f.get("location").get("file").asText()).isEqualTo("a.yml");
    assertThat(f.get("location").get("rule").asText()).isEqualTo("A");
  }

  @Test
  void lintWithoutInputIsBadData() throws Exception {
    HttpResponse<String> r = server.get("/api/v1/llm/lint");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(r.body()).get("errorType").asText()).isEqualTo("bad_data");
  }

  @Test
  void outOfRangeTimesAreBadDataNamingTheParameter() throws Exception {
    for (String[] c :
        new String[][] {
          {"/api/v1/llm/diagnosis?end=1e300", "end"},
          {"/api/v1/llm/diagnosis?start=-1e300&end=1", "start"},
          {"/api/v1/llm/slo?time=1e19", "time"}
        }) {
      HttpResponse<String> r = server.get(c[0]);
      assertThat(r.statusCode()).as(c[0]).isEqualTo(400);
      JsonNode body = JSON.readTree(r.body());
      assertThat(body.get("errorType").asText()).isEqualTo("bad_data");
      assertThat(body.get("error").asText())
          .startsWith("invalid parameter \"" + c[1] + "\": cannot parse");
    }
  }

  @Test
  void diagnosisOfAQuietPodFindsNothingAndSaysWhatItCouldNotRead() throws Exception {
    JsonNode d = data(server.get("/api/v1/llm/diagnosis?window=10m"));
    assertThat(d.get("findings")).isEmpty();
    assertThat(d.get("pods").get(0).asText()).isEqualTo("ns/p (m)");
    // the pod exposes only its running requests: everything else is not measured, not fine
    JsonNode unread = d.get("notMeasured").get(0);
    assertThat(unread.get("pod").asText()).isEqualTo("p");
    assertThat(unread.get("signals").toString())
        .contains("\"requests waiting\"", "\"TTFT\"", "\"GPU memory\"")
        .doesNotContain("requests running");
  }

  @Test
  void sloPanelReadsAttainmentAndBudgetFromRecordedSeries() throws Exception {
    JsonNode s = data(server.get("/api/v1/llm/slo")).get("slos").get(0);
    assertThat(s.get("slo").asText()).isEqualTo("m-ttft");
    assertThat(s.get("objective").asDouble()).isEqualTo(0.95);
    assertThat(s.get("thresholdSeconds").asDouble()).isEqualTo(2.5);
    assertThat(s.get("attainment").asDouble())
        .isCloseTo(0.98, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(s.get("budgetRemaining").asDouble())
        .isCloseTo(0.6, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(s.get("burnRates").get("1h").asDouble())
        .isCloseTo(2.0, org.assertj.core.data.Offset.offset(1e-9));
  }
}
