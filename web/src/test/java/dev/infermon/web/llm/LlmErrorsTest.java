package dev.infermon.web.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.lint.LintService;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.llm.diagnosis.DiagnosisService;
import dev.infermon.llm.export.ExportService;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.slo.SloService;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.web.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every LLM endpoint answers each kind of failure as the Prometheus API's {@code /api/v1/query}
 * does, in the one JSON envelope: a query timeout is 503 {@code timeout}, a bad parameter 400
 * {@code bad_data} naming it, a storage not ready yet 503 {@code unavailable}; what needs no
 * storage answers before it is ready. Real parts: the timeout comes from a real engine whose every
 * query runs out of time (a 1 ns timeout), "not ready" from services not bound yet, as {@code
 * serve} has them during WAL replay.
 */
class LlmErrorsTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String NOT_READY = "the storage is not ready";
  static final String TIMED_OUT = "query timed out in expression evaluation";

  /** The state of the server a row's request goes to. */
  enum When {
    READY,
    TIMEOUT,
    NOT_READY
  }

  @TempDir static Path readyDir;
  @TempDir static Path slowDir;
  static Layer ready;
  static Layer slow;

  /** A server with the LLM layer's services over its backend, bound or not, as serve wires them. */
  static final class Layer {
    final AtomicBoolean bound = new AtomicBoolean(true);
    final TestServer server;
    DashboardService dashboard;
    DiagnosisService diagnosis;
    SloService slo;
    LintService lint;
    final LintService storeless = new LintService(Catalog.builtIn());

    Layer(Path dir, EngineOptions engine) throws Exception {
      server =
          TestServer.start(
              dir,
              engine,
              o -> o,
              b ->
                  b.dashboard(() -> bound.get() ? dashboard : null)
                      .diagnosis(() -> bound.get() ? diagnosis : null)
                      .slo(() -> bound.get() ? slo : null)
                      .lint(() -> bound.get() ? lint : storeless)
                      .exports(new ExportService(Catalog.builtIn())));
      QueryBackend backend = server.backend.get();
      InventoryService inventories = new InventoryService(Catalog.builtIn(), backend);
      dashboard = new DashboardService(backend, inventories);
      diagnosis = new DiagnosisService(backend, inventories);
      slo = new SloService(backend);
      lint = new LintService(inventories);
    }
  }

  @BeforeAll
  static void start() throws Exception {
    ready = new Layer(readyDir, EngineOptions.DEFAULTS);
    slow = new Layer(slowDir, EngineOptions.DEFAULTS.withTimeout(Duration.ofNanos(1)));
  }

  @AfterAll
  static void stop() {
    ready.server.close();
    slow.server.close();
  }

  static Arguments row(When when, String request, int status, String errorType, String error) {
    return Arguments.of(when, request, status, errorType, error);
  }

  static Stream<Arguments> rows() {
    String badEnd = "invalid parameter \"end\": end timestamp must not be before start time";
    String unknownEngine =
        "invalid parameter \"engines\": unknown engine: \"mlc\" (known: "
            + dev.infermon.llm.catalog.Catalog.builtIn().engines().stream()
                .map(dev.infermon.llm.catalog.EngineCatalog::engine)
                .collect(java.util.stream.Collectors.joining(", "))
            + ")";
    return Stream.of(
        // the reference: the Prometheus API's answers
        row(When.TIMEOUT, "/api/v1/query?query=up", 503, "timeout", TIMED_OUT),
        row(
            When.READY,
            "/api/v1/query?query=up&time=x",
            400,
            "bad_data",
            "invalid parameter \"time\": Invalid time value for 'time': cannot parse \"x\" to a"
                + " valid timestamp"),
        // a query timeout: 503 timeout on every endpoint that queries
        row(When.TIMEOUT, "/api/v1/llm/dashboard", 503, "timeout", TIMED_OUT),
        row(When.TIMEOUT, "/api/v1/llm/dashboard/panel?id=model.qps", 503, "timeout", TIMED_OUT),
        row(When.TIMEOUT, "/api/v1/llm/inventory", 503, "timeout", TIMED_OUT),
        row(When.TIMEOUT, "/api/v1/llm/lint?expr=up", 503, "timeout", TIMED_OUT),
        row(When.TIMEOUT, "/api/v1/llm/diagnosis", 503, "timeout", TIMED_OUT),
        row(When.TIMEOUT, "/api/v1/llm/slo", 503, "timeout", TIMED_OUT),
        // a bad parameter: 400 bad_data, named where the parameter is the endpoint's own
        row(
            When.READY,
            "/api/v1/llm/dashboard?quantile=2",
            400,
            "bad_data",
            "invalid parameter \"quantile\": must be between 0.5 and 0.99, got 2"),
        row(
            When.READY,
            "/api/v1/llm/dashboard/panel?id=model.nope",
            400,
            "bad_data",
            "invalid parameter \"panels\": unknown panel: \"model.nope\""),
        row(
            When.READY,
            "/api/v1/llm/dashboard/panels?level=cluster",
            400,
            "bad_data",
            "invalid parameter \"level\": unknown level \"cluster\" (one of all, model, pod, gpu,"
                + " causal, pd, router)"),
        row(
            When.READY,
            "/api/v1/llm/inventory?time=x",
            400,
            "bad_data",
            "invalid parameter \"time\": cannot parse \"x\" to a valid timestamp"),
        row(
            When.READY,
            "/api/v1/llm/lint",
            400,
            "bad_data",
            "invalid parameter \"expr\": give expr, rules or dashboard"),
        row(
            When.READY,
            "/api/v1/llm/lint?expr=up&scrape_interval=x",
            400,
            "bad_data",
            "cannot parse \"x\" to a valid duration"),
        row(When.READY, "/api/v1/llm/diagnosis?start=200&end=100", 400, "bad_data", badEnd),
        row(When.READY, "/api/v1/llm/diagnosis?window=0s", 400, "bad_data", badEnd),
        row(
            When.READY,
            "/api/v1/llm/diagnosis?step=0s",
            400,
            "bad_data",
            "invalid parameter \"step\": zero or negative query resolution step widths are not"
                + " accepted. Try a positive integer"),
        row(
            When.READY,
            "/api/v1/llm/diagnosis?end=x",
            400,
            "bad_data",
            "invalid parameter \"end\": cannot parse \"x\" to a valid timestamp"),
        row(
            When.READY,
            "/api/v1/llm/slo?time=x",
            400,
            "bad_data",
            "invalid parameter \"time\": cannot parse \"x\" to a valid timestamp"),
        row(When.READY, "/api/v1/llm/export/grafana?engines=mlc", 400, "bad_data", unknownEngine),
        row(When.READY, "/api/v1/llm/export/rules?engines=mlc", 400, "bad_data", unknownEngine),
        row(
            When.READY,
            "/api/v1/llm/export/rules?engines=sglang&spellings=vllm:",
            400,
            "bad_data",
            "invalid parameter \"spellings\": no chosen engine is spelt \"vllm:\" (known:"
                + " sglang:, sglang_)"),
        row(
            When.READY,
            "/api/v1/llm/export/prometheusrule?name=Not_A_Name",
            400,
            "bad_data",
            "invalid parameter \"name\": not a Kubernetes object name: \"Not_A_Name\""),
        // not ready: 503 unavailable, in JSON
        row(When.NOT_READY, "/api/v1/llm/dashboard", 503, "unavailable", NOT_READY),
        row(
            When.NOT_READY,
            "/api/v1/llm/dashboard/panel?id=model.qps",
            503,
            "unavailable",
            NOT_READY),
        row(When.NOT_READY, "/api/v1/llm/inventory", 503, "unavailable", NOT_READY),
        row(When.NOT_READY, "/api/v1/llm/lint?expr=up", 503, "unavailable", NOT_READY),
        row(When.NOT_READY, "/api/v1/llm/diagnosis", 503, "unavailable", NOT_READY),
        row(When.NOT_READY, "/api/v1/llm/slo", 503, "unavailable", NOT_READY),
        // ... while what needs no storage answers
        row(When.NOT_READY, "/api/v1/llm/lint?expr=up&reference=catalog", 200, "", ""),
        row(When.NOT_READY, "/api/v1/llm/dashboard/panels", 200, "", ""),
        row(When.NOT_READY, "/api/v1/llm/catalog/names", 200, "", ""),
        row(When.NOT_READY, "/api/v1/llm/export/grafana", 200, "", ""),
        row(When.NOT_READY, "/api/v1/llm/export/rules", 200, "", ""),
        row(When.NOT_READY, "/api/v1/llm/export/prometheusrule", 200, "", ""));
  }

  @ParameterizedTest(name = "{0} {1} → {2} {3}")
  @MethodSource("rows")
  void eachEndpointAnswersEachFailureAsTheQueryApiDoes(
      When when, String request, int status, String errorType, String error) throws Exception {
    Layer layer = when == When.TIMEOUT ? slow : ready;
    layer.bound.set(when != When.NOT_READY);
    try {
      HttpResponse<String> r = layer.server.get(request);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
      if (status == 200) {
        return;
      }
      assertThat(r.headers().firstValue("Content-Type").orElse("")).isEqualTo("application/json");
      JsonNode body = JSON.readTree(r.body());
      assertThat(body.path("status").asText()).isEqualTo("error");
      assertThat(body.path("errorType").asText()).isEqualTo(errorType);
      assertThat(body.path("error").asText()).isEqualTo(error);
    } finally {
      layer.bound.set(true);
    }
  }
}
