package dev.infermon.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.web.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The API as a table: request → HTTP status and exact JSON body, over a store loaded with known
 * samples. Expected bodies are what Prometheus 2.42 answers for the same data (checked against the
 * real binary by the server module's conformance test).
 */
class ApiTest {
  static final long T0 = 1_700_000_000_000L;
  static final String UP1 = "\"__name__\":\"up\",\"instance\":\"h1:9090\",\"job\":\"node\"";

  @TempDir static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(dir, EngineOptions.DEFAULTS, o -> o);
    Labels up1 = Labels.of("__name__", "up", "job", "node", "instance", "h1:9090");
    Labels up2 = Labels.of("__name__", "up", "job", "node", "instance", "h2:9090");
    Labels req = Labels.of("__name__", "http_requests_total", "job", "api", "code", "200");
    server.load(
        up1,
        T0,
        1,
        up1,
        T0 + 15_000,
        1,
        up1,
        T0 + 30_000,
        0,
        up2,
        T0,
        1,
        up2,
        T0 + 15_000,
        1,
        req,
        T0,
        10,
        req,
        T0 + 15_000,
        25,
        req,
        T0 + 30_000,
        40);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  record Case(String request, int status, String body) {
    @Override
    public String toString() {
      return request;
    }
  }

  static Stream<Case> cases() {
    String t30 = "1700000030";
    return Stream.of(
        new Case(
            "/api/v1/query?query=1%2B1&time=1.5",
            200,
            "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1.5,\"2\"]}}"),
        new Case(
            "/api/v1/query?query=%22s%22&time=2",
            200,
            "{\"status\":\"success\",\"data\":{\"resultType\":\"string\",\"result\":[2,\"s\"]}}"),
        new Case(
            "/api/v1/query?query=vector(1)&time=1.100",
            200,
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[1.100,\"1\"]}]}}"),
        new Case(
            "/api/v1/query?query=up%7Binstance%3D%22h1:9090%22%7D&time=" + t30,
            200,
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{"
                + UP1
                + "},\"value\":[1700000030,\"0\"]}]}}"),
        new Case(
            "/api/v1/query?query=up%7Binstance%3D%22h1:9090%22%7D%5B20s%5D&time=" + t30,
            200,
            "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{"
                + UP1
                + "},\"values\":[[1700000015,\"1\"],[1700000030,\"0\"]]}]}}"),
        new Case(
            "/api/v1/query_range?query=vector(1)&start=1&end=4&step=1.5",
            200,
            "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[[1,\"1\"],[2.500,\"1\"],[4,\"1\"]]}]}}"),
        new Case(
            "/api/v1/query_range?query=1%2F0&start=1&end=2&step=1m",
            200,
            "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[[1,\"+Inf\"]]}]}}"),
        new Case(
            "/api/v1/query?query=foo%7B",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"query\\\": 1:5: parse error: unexpected end of input inside braces\"}"),
        new Case(
            "/api/v1/query?query=up&time=x",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"time\\\": Invalid time value for 'time': cannot parse \\\"x\\\" to a valid timestamp\"}"),
        new Case(
            "/api/v1/query?query=time()&time=1e300",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"time\\\": Invalid time value for 'time': cannot parse \\\"1e300\\\" to a valid timestamp\"}"),
        new Case(
            "/api/v1/query_range?query=up&start=1&end=1e300&step=1e296",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"end\\\": cannot parse \\\"1e300\\\" to a valid timestamp\"}"),
        new Case(
            "/api/v1/query_range?query=up&start=-1e300&end=1&step=1",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"start\\\": cannot parse \\\"-1e300\\\" to a valid timestamp\"}"),
        new Case(
            "/api/v1/series?match%5B%5D=up&start=1e19",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"start\\\": Invalid time value for 'start': cannot parse \\\"1e19\\\" to a valid timestamp\"}"),
        new Case(
            "/api/v1/labels?end=-1e19",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"end\\\": Invalid time value for 'end': cannot parse \\\"-1e19\\\" to a valid timestamp\"}"),
        new Case(
            "/api/v1/label/job/values?start=9223372036854775.807",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"start\\\": Invalid time value for 'start': cannot parse \\\"9223372036854775.807\\\" to a valid timestamp\"}"),
        new Case(
            "/api/v1/query?query=up&timeout=x",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"timeout\\\": cannot parse \\\"x\\\" to a valid duration\"}"),
        new Case(
            "/api/v1/query_range?query=foo%7B&start=1&end=2&step=1",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"1:5: parse error: unexpected end of input inside braces\"}"),
        new Case(
            "/api/v1/query_range?query=up&start=5&end=1&step=1",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"end\\\": end timestamp must not be before start time\"}"),
        new Case(
            "/api/v1/query_range?query=up&start=1&end=5&step=0",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"step\\\": zero or negative query resolution step widths are not accepted. Try a positive integer\"}"),
        new Case(
            "/api/v1/query_range?query=up&start=1&end=5",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"step\\\": cannot parse \\\"\\\" to a valid duration\"}"),
        new Case(
            "/api/v1/query_range?query=up&start=1&end=12001&step=1",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\""
                + QueryApi.TOO_MANY_POINTS
                + "\"}"),
        new Case(
            "/api/v1/query_range?query=up%5B5m%5D&start=1&end=2&step=1",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid expression type \\\"range vector\\\" for range query, must be Scalar or instant Vector\"}"),
        new Case(
            "/api/v1/series",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"no match[] parameter provided\"}"),
        new Case(
            "/api/v1/series?match%5B%5D=%7Ba%3D%22%22%7D",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"match[]\\\": match[] must contain at least one non-empty matcher\"}"),
        new Case(
            "/api/v1/series?match%5B%5D=up%7Binstance%3D%22h1:9090%22%7D",
            200, "{\"status\":\"success\",\"data\":[{" + UP1 + "}]}"),
        new Case(
            "/api/v1/labels",
            200,
            "{\"status\":\"success\",\"data\":[\"__name__\",\"code\",\"instance\",\"job\"]}"),
        new Case(
            "/api/v1/labels?match%5B%5D=up",
            200, "{\"status\":\"success\",\"data\":[\"__name__\",\"instance\",\"job\"]}"),
        new Case(
            "/api/v1/labels?match%5B%5D=up%7B",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"1:4: parse error: unexpected end of input inside braces\"}"),
        new Case(
            "/api/v1/label/__name__/values",
            200,
            "{\"status\":\"success\",\"data\":[\"http_requests_total\",\"up\"]}"),
        new Case(
            "/api/v1/label/job/values?match%5B%5D=up",
            200, "{\"status\":\"success\",\"data\":[\"node\"]}"),
        new Case(
            "/api/v1/label/a-b/values",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid label name: \\\"a-b\\\"\"}"),
        new Case(
            "/api/v1/metadata?limit=x",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"limit must be a number\"}"),
        new Case(
            "/api/v1/targets",
            200,
            "{\"status\":\"success\",\"data\":{\"activeTargets\":[],\"droppedTargets\":[]}}"),
        new Case("/api/v1/rules", 200, "{\"status\":\"success\",\"data\":{\"groups\":[]}}"),
        new Case(
            "/api/v1/rules?type=x",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"type\\\": not supported value \\\"x\\\"\"}"),
        new Case("/api/v1/alerts", 200, "{\"status\":\"success\",\"data\":{\"alerts\":[]}}"),
        new Case(
            "/api/v1/format_query?query=sum(foo)by(a)",
            200,
            "{\"status\":\"success\",\"data\":\"sum by (a) (foo)\"}"),
        new Case(
            "/api/v1/format_query?query=sum(",
            400,
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"query\\\": 1:5: parse error: unclosed left parenthesis\"}"),
        new Case(
            "/api/v1/status/config",
            200,
            "{\"status\":\"success\",\"data\":{\"yaml\":\"global:\\n  scrape_interval: 15s\\n\"}}"),
        new Case(
            "/api/v1/status/flags",
            200,
            "{\"status\":\"success\",\"data\":{\"query.timeout\":\"2m\"}}"),
        new Case("/api/v1/nosuch", 404, "404 page not found\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void answersAsPrometheus(Case c) throws Exception {
    HttpResponse<String> r = server.get(c.request());
    assertThat(r.body()).isEqualTo(c.body());
    assertThat(r.statusCode()).isEqualTo(c.status());
  }

  @Test
  void rateOverTheLoadedCounter() throws Exception {
    HttpResponse<String> r =
        server.get("/api/v1/query?query=rate(http_requests_total%5B1m%5D)&time=1700000030");
    JsonNode v = new ObjectMapper().readTree(r.body()).at("/data/result/0/value/1");
    // 30 over 30 s sampled, extrapolated by half an interval (7.5 s) at the start: 37.5 / 60 s
    assertThat(v.asText()).isEqualTo("0.625");
  }

  @Test
  void postFormBodiesAreReadLikeQueryStrings() throws Exception {
    HttpResponse<String> get =
        server.get("/api/v1/query_range?query=up&start=" + 1700000000 + "&end=1700000030&step=15");
    HttpResponse<String> post =
        server.postForm(
            "/api/v1/query_range",
            "query",
            "up",
            "start",
            "1700000000",
            "end",
            "1700000030",
            "step",
            "15");
    assertThat(post.statusCode()).isEqualTo(200);
    assertThat(post.body()).isEqualTo(get.body());
    JsonNode result = new ObjectMapper().readTree(post.body()).at("/data/result");
    assertThat(result).hasSize(2);
  }

  @Test
  void grafanaDataSourceCheckPasses() throws Exception {
    // Grafana's "Save & test": an instant 1+1 over a 1-4 s range (POST), then buildinfo.
    HttpResponse<String> q = server.postForm("/api/v1/query", "query", "1+1", "time", "4");
    assertThat(q.statusCode()).isEqualTo(200);
    JsonNode n = new ObjectMapper().readTree(q.body());
    assertThat(n.at("/data/resultType").asText()).isEqualTo("scalar");
    assertThat(n.at("/data/result/1").asText()).isEqualTo("2");
    HttpResponse<String> b = server.get("/api/v1/status/buildinfo");
    JsonNode bi = new ObjectMapper().readTree(b.body()).get("data");
    assertThat(List.of(bi.fieldNames()).toString()).isNotEmpty();
    assertThat(bi.get("version").asText()).matches("\\d+\\.\\d+\\.\\d+");
    assertThat(bi.has("features")).isFalse();
    for (String f : List.of("revision", "branch", "buildUser", "buildDate", "goVersion")) {
      assertThat(bi.has(f)).as(f).isTrue();
    }
  }

  @Test
  void lifecycleEndpoints() throws Exception {
    assertThat(server.get("/-/healthy").statusCode()).isEqualTo(200);
    assertThat(server.get("/-/ready").statusCode()).isEqualTo(200);
    HttpResponse<String> reload = server.postForm("/-/reload");
    assertThat(reload.statusCode()).isEqualTo(403);
    assertThat(reload.body()).isEqualTo("Lifecycle API is not enabled.");
  }

  @Test
  void ownMetricsCountRequests() throws Exception {
    server.get("/api/v1/labels");
    HttpResponse<String> m = server.get("/metrics");
    assertThat(m.statusCode()).isEqualTo(200);
    assertThat(m.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(m.body())
        .contains("infermon_http_requests_total{code=\"200\",handler=\"/api/v1/labels\"}")
        .contains("infermon_engine_queries_concurrent_max 20");
  }
}
