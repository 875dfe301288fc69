package dev.infermon.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.value.QueryResult;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whatever escapes a handler, an Error included, answers Prometheus's JSON error envelope (never
 * Jetty's HTML error page) and the server goes on serving; deep queries, which used to overflow the
 * stack, answer like any other.
 */
class FailuresTest {
  @TempDir Path dir;

  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of(
            (Supplier<Throwable>) StackOverflowError::new,
            "the request exhausted its thread's stack"),
        Arguments.of((Supplier<Throwable>) () -> new AssertionError("broken"), "broken"),
        Arguments.of((Supplier<Throwable>) () -> new NoClassDefFoundError("dev/x/Y"), "dev/x/Y"),
        Arguments.of((Supplier<Throwable>) () -> new AssertionError(), "java.lang.AssertionError"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("failures")
  void aFailureNoHandlerCaughtIsAJsonInternalError(Supplier<Throwable> failure, String message)
      throws Exception {
    try (TestServer s =
        TestServer.start(
            dir, EngineOptions.DEFAULTS, o -> o, b -> b.queries(() -> failing(failure)))) {
      HttpResponse<String> r = s.get("/api/v1/query?query=up");
      assertThat(r.statusCode()).isEqualTo(500);
      assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
      assertThat(r.body())
          .isEqualTo(
              "{\"status\":\"error\",\"errorType\":\"internal\",\"error\":\"" + message + "\"}");
      assertThat(s.get("/-/healthy").statusCode()).isEqualTo(200);
    }
  }

  /** 1,500 and 20,000 terms: Prometheus 2.42 answers both; infermon answered 500 with HTML. */
  @Test
  void longChainsAnswerTheirValue() throws Exception {
    try (TestServer s = TestServer.start(dir, EngineOptions.DEFAULTS, o -> o)) {
      for (int n : new int[] {1500, 20_000}) {
        String chain = "vector(1)" + " + vector(1)".repeat(n - 1);
        HttpResponse<String> r = s.postForm("/api/v1/query", "query", chain, "time", "1000");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body())
            .isEqualTo(
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                    + "[{\"metric\":{},\"value\":[1000,\""
                    + n
                    + "\"]}]}}");
      }
    }
  }

  /** A backend whose every query throws {@code failure} (an engine bug, a linkage error). */
  private static QueryBackend failing(Supplier<Throwable> failure) {
    return new QueryBackend() {
      @Override
      public QueryResult instantQuery(String query, long timeMs) {
        return sneakyThrow(failure.get());
      }

      @Override
      public QueryResult rangeQuery(String query, long startMs, long endMs, long stepMs) {
        return sneakyThrow(failure.get());
      }

      @Override
      public List<Labels> series(List<String> selectors, long startMs, long endMs) {
        return sneakyThrow(failure.get());
      }

      @Override
      public List<String> labelNames(List<String> selectors, long startMs, long endMs) {
        return sneakyThrow(failure.get());
      }

      @Override
      public List<String> labelValues(
          String name, List<String> selectors, long startMs, long endMs) {
        return sneakyThrow(failure.get());
      }

      @Override
      public Map<String, List<Metadata>> metadata(String metric) {
        return sneakyThrow(failure.get());
      }
    };
  }

  @SuppressWarnings("unchecked")
  private static <R, T extends Throwable> R sneakyThrow(Throwable t) throws T {
    throw (T) t;
  }
}
