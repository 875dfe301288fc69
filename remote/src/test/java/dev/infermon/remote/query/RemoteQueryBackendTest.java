package dev.infermon.remote.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.promql.BadQueryException;
import dev.infermon.promql.QueryCanceledException;
import dev.infermon.promql.QueryException;
import dev.infermon.promql.QueryTimeoutException;
import dev.infermon.promql.TooManyPointsException;
import dev.infermon.promql.TooManySamplesException;
import dev.infermon.promql.value.Annotation;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.StringValue;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Vector;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The backend against a scripted Prometheus API on 127.0.0.1: the answers are Prometheus 2.42's
 * JSON shapes, the requests are checked as Prometheus would read them.
 */
class RemoteQueryBackendTest {
  private HttpServer server;
  private final java.util.concurrent.ExecutorService handlers =
      java.util.concurrent.Executors.newCachedThreadPool();
  private volatile int status = 200;
  private volatile String body = "";
  private volatile String lastRequest = "";
  private volatile long delayMs;
  private RemoteQueryBackend backend;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/prom/",
        ex -> {
          String form = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          String query = ex.getRequestURI().getRawQuery();
          lastRequest =
              ex.getRequestMethod()
                  + " "
                  + ex.getRequestURI().getRawPath()
                  + " "
                  + URLDecoder.decode(
                      form.isEmpty() && query != null ? query : form, StandardCharsets.UTF_8);
          try {
            Thread.sleep(delayMs);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          byte[] b = body.getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(status, b.length);
          ex.getResponseBody().write(b);
          ex.close();
        });
    server.setExecutor(handlers); // a slow answer does not hold up the next request
    server.start();
    backend =
        new RemoteQueryBackend(
            URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/prom/"),
            Duration.ofSeconds(10),
            HttpClientConfig.DEFAULT,
            "infermon/test");
  }

  @AfterEach
  void stop() {
    server.stop(0);
    handlers.shutdownNow();
  }

  private void answer(int code, String json) {
    status = code;
    body = json;
  }

  @Test
  void anInstantVectorWithGoFormattedValues() {
    answer(
        200,
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
            + "{\"metric\":{\"__name__\":\"up\",\"job\":\"a\"},\"value\":[1700000000.5,\"1\"]},"
            + "{\"metric\":{\"job\":\"b\"},\"value\":[1700000000.5,\"NaN\"]},"
            + "{\"metric\":{\"job\":\"c\"},\"value\":[1700000000.5,\"+Inf\"]},"
            + "{\"metric\":{\"job\":\"d\"},\"value\":[1700000000.5,\"-Inf\"]}]}}");

    QueryResult r = backend.instantQuery("up", 1_700_000_000_500L);

    assertThat(lastRequest)
        .isEqualTo("POST /prom/api/v1/query query=up&time=1700000000.5&timeout=10");
    assertThat(((Vector) r.value()).samples())
        .containsExactly(
            new Sample(Labels.of("__name__", "up", "job", "a"), 1_700_000_000_500L, 1),
            new Sample(Labels.of("job", "b"), 1_700_000_000_500L, Double.NaN),
            new Sample(Labels.of("job", "c"), 1_700_000_000_500L, Double.POSITIVE_INFINITY),
            new Sample(Labels.of("job", "d"), 1_700_000_000_500L, Double.NEGATIVE_INFINITY));
    assertThat(r.annotations().isEmpty()).isTrue();
  }

  @Test
  void aCallersShorterTimeoutIsSentAndBoundsTheCall() {
    answer(200, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}");
    delayMs = 5_000;

    assertThatThrownBy(() -> backend.instantQuery("up", 1_000, Duration.ofMillis(300)))
        .isInstanceOf(QueryTimeoutException.class)
        .hasMessageContaining("300 ms");
    assertThatThrownBy(() -> backend.rangeQuery("up", 0, 60_000, 15_000, Duration.ofMillis(300)))
        .isInstanceOf(QueryTimeoutException.class);

    delayMs = 0;
    backend.rangeQuery("up", 0, 60_000, 15_000, Duration.ofMillis(2_500));
    assertThat(lastRequest).endsWith("&timeout=2.5");
    // a longer one than the configured 10 s is cut to it
    backend.instantQuery("up", 1_000, Duration.ofMinutes(5));
    assertThat(lastRequest).endsWith("&timeout=10");
  }

  @Test
  void aRangeMatrix() {
    answer(
        200,
        "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
            + "{\"metric\":{\"pod\":\"p\"},\"values\":[[10,\"1\"],[25,\"2.5\"]]}]}}");

    QueryResult r = backend.rangeQuery("rate(x[1m])", 10_000, 25_000, 15_000);

    assertThat(lastRequest)
        .isEqualTo(
            "POST /prom/api/v1/query_range query=rate(x[1m])&start=10&end=25&step=15&timeout=10");
    assertThat(((Matrix) r.value()).series())
        .containsExactly(
            TimeSeries.of(
                Labels.of("pod", "p"), new long[] {10_000, 25_000}, new double[] {1, 2.5}));
  }

  @Test
  void scalarsStringsAndAnnotations() {
    answer(
        200,
        "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[2,\"2\"]},"
            + "\"warnings\":[\"w1\"],\"infos\":[\"PromQL info: i1\"]}");
    QueryResult r = backend.instantQuery("1+1", 2_000);
    assertThat(r.value()).isEqualTo(new Scalar(2_000, 2));
    assertThat(r.annotations().all())
        .containsExactly(
            new Annotation(Annotation.Severity.WARNING, "w1"),
            new Annotation(Annotation.Severity.INFO, "PromQL info: i1"));

    answer(
        200,
        "{\"status\":\"success\",\"data\":{\"resultType\":\"string\",\"result\":[3.001,\"hi\"]}}");
    assertThat(backend.instantQuery("\"hi\"", 3_001).value())
        .isEqualTo(new StringValue(3_001, "hi"));
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of(
            400,
            "bad_data",
            "1:5: parse error: unexpected end of input",
            BadQueryException.class,
            "1:5: parse error: unexpected end of input"),
        Arguments.of(
            400,
            "bad_data",
            "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)",
            TooManyPointsException.class,
            "11,000"),
        Arguments.of(
            503,
            "timeout",
            "query timed out in expression evaluation",
            QueryTimeoutException.class,
            "query timed out in expression evaluation"),
        Arguments.of(
            499,
            "canceled",
            "query was canceled in query execution",
            QueryCanceledException.class,
            "query was canceled in query execution"),
        Arguments.of(
            422,
            "execution",
            "query processing would load too many samples into memory in query execution",
            TooManySamplesException.class,
            "too many samples"),
        Arguments.of(
            422,
            "execution",
            "found duplicate series for the match group",
            QueryException.class,
            "found duplicate series for the match group"),
        Arguments.of(
            503,
            "unavailable",
            "TSDB not ready",
            RemoteUnavailableException.class,
            "TSDB not ready"),
        Arguments.of(500, "internal", "boom", RemoteUnavailableException.class, "internal"));
  }

  @ParameterizedTest(name = "{1} → {3}")
  @MethodSource("errors")
  void errorTypesMapToThePromqlExceptions(
      int code, String type, String message, Class<? extends Throwable> expected, String text) {
    answer(
        code,
        "{\"status\":\"error\",\"errorType\":\""
            + type
            + "\",\"error\":\""
            + message.replace("\"", "\\\"")
            + "\"}");

    assertThatThrownBy(() -> backend.instantQuery("x", 0))
        .isExactlyInstanceOf(expected)
        .hasMessageContaining(text);
  }

  @Test
  void somethingThatIsNotTheApiIsUnavailableNotABadQuery() {
    answer(502, "<html>Bad Gateway</html>");
    assertThatThrownBy(() -> backend.instantQuery("x", 0))
        .isExactlyInstanceOf(RemoteUnavailableException.class)
        .hasMessageContaining("HTTP 502")
        .hasMessageContaining("Bad Gateway");
  }

  @Test
  void anUnreachableApiIsUnavailable() {
    server.stop(0);
    assertThatThrownBy(() -> backend.instantQuery("x", 0))
        .isExactlyInstanceOf(RemoteUnavailableException.class)
        .hasMessageContaining("unreachable");
  }

  @Test
  void seriesLabelsAndValues() {
    answer(
        200,
        "{\"status\":\"success\",\"data\":[{\"__name__\":\"up\",\"job\":\"b\"},"
            + "{\"__name__\":\"up\",\"job\":\"a\"}]}");
    assertThat(backend.series(List.of("up", "{job=\"a\"}"), 0, 60_000))
        .containsExactly(
            Labels.of("__name__", "up", "job", "a"), Labels.of("__name__", "up", "job", "b"));
    assertThat(lastRequest)
        .isEqualTo("POST /prom/api/v1/series match[]=up&match[]={job=\"a\"}&start=0&end=60");

    answer(200, "{\"status\":\"success\",\"data\":[\"__name__\",\"job\"]}");
    assertThat(backend.labelNames(List.of(), Long.MIN_VALUE, Long.MAX_VALUE))
        .containsExactly("__name__", "job");
    assertThat(lastRequest).isEqualTo("POST /prom/api/v1/labels ");

    answer(200, "{\"status\":\"success\",\"data\":[\"a\",\"b\"]}");
    assertThat(backend.labelValues("job", List.of("up"), 1_000, 2_000)).containsExactly("a", "b");
    assertThat(lastRequest).isEqualTo("GET /prom/api/v1/label/job/values match[]=up&start=1&end=2");
  }

  @Test
  void seriesWithoutSelectorsIsABadQuery() {
    assertThatThrownBy(() -> backend.series(List.of(), 0, 1)).isInstanceOf(BadQueryException.class);
  }

  @Test
  void metadata() {
    answer(
        200,
        "{\"status\":\"success\",\"data\":{\"up\":[{\"type\":\"gauge\",\"help\":\"Up.\",\"unit\":\"\"}],"
            + "\"x\":[{\"type\":\"weird\",\"help\":\"\",\"unit\":\"\"}]}}");

    assertThat(backend.metadata("up"))
        .isEqualTo(
            Map.of(
                "up", List.of(new Metadata(MetricType.GAUGE, "Up.", "")),
                "x", List.of(Metadata.UNKNOWN)));
    assertThat(lastRequest).isEqualTo("GET /prom/api/v1/metadata metric=up");
  }

  @Test
  void secondsAreExact() {
    assertThat(RemoteQueryBackend.seconds(1_700_000_000_123L)).isEqualTo("1700000000.123");
    assertThat(RemoteQueryBackend.seconds(15_000)).isEqualTo("15");
    assertThat(RemoteQueryBackend.seconds(-1)).isEqualTo("-0.001");
    assertThat(RemoteQueryBackend.seconds(0)).isEqualTo("0");
  }
}
