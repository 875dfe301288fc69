package dev.infermon.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.Appender;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limits answer with Prometheus's error types, and the server stays responsive while a
 * pathological query is being cut off.
 */
class LimitsTest {
  static final long T = 1_700_000_000_000L;

  /** Millions of subquery steps: far more work than the timeout allows. */
  static final String PATHOLOGICAL =
      "/api/v1/query?query="
          // every one of 4 x 7.2 million subquery steps sorts an hour of samples: far beyond 2 s
          + TestServer.enc("count_over_time(quantile_over_time(0.5, load[1h])[2h:1ms])")
          + "&time=1700007200";

  @TempDir Path dir;

  private static void loadSeries(TestServer s, int series, int samples) {
    Appender a = s.tsdb.appender();
    for (int i = 0; i < series; i++) {
      Labels l = Labels.of("__name__", "load", "i", Integer.toString(i));
      for (int j = 0; j < samples; j++) {
        a.append(l, T + j * 15_000L, j);
      }
    }
    a.commit();
  }

  @Test
  void timeoutIs503AndTheServerStaysResponsive() throws Exception {
    EngineOptions engine = EngineOptions.DEFAULTS.withTimeout(Duration.ofSeconds(2));
    try (TestServer s = TestServer.start(dir, engine, o -> o)) {
      loadSeries(s, 4, 480);
      long start = System.nanoTime();
      CompletableFuture<HttpResponse<String>> heavy =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return s.get(PATHOLOGICAL);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      Thread.sleep(300);
      for (int i = 0; i < 3; i++) {
        long t0 = System.nanoTime();
        assertThat(s.get("/-/healthy").statusCode()).isEqualTo(200);
        HttpResponse<String> cheap = s.get("/api/v1/query?query=1%2B1");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(cheap.statusCode()).isEqualTo(200);
        assertThat(ms).as("health check and cheap query while the heavy one runs").isLessThan(1000);
      }
      assertThat(heavy.isDone()).as("the heavy query is still running").isFalse();
      HttpResponse<String> r = heavy.get(30, TimeUnit.SECONDS);
      long took = (System.nanoTime() - start) / 1_000_000;
      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(r.body())
          .startsWith(
              "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out in");
      assertThat(took).as("cut off near the 2 s timeout").isLessThan(10_000);
    }
  }

  @Test
  void tooManySamplesIs422Execution() throws Exception {
    EngineOptions engine = EngineOptions.DEFAULTS.withMaxSamples(10);
    try (TestServer s = TestServer.start(dir, engine, o -> o)) {
      loadSeries(s, 1, 20);
      HttpResponse<String> r = s.get("/api/v1/query?query=load%5B1h%5D&time=1700000300");
      assertThat(r.statusCode()).isEqualTo(422);
      assertThat(r.body())
          .isEqualTo(
              "{\"status\":\"error\",\"errorType\":\"execution\",\"error\":\"query processing would"
                  + " load too many samples into memory in query execution\"}");
    }
  }

  @Test
  void excessQueriesWaitAndTimeOutInTheQueue() throws Exception {
    EngineOptions engine = EngineOptions.DEFAULTS.withTimeout(Duration.ofSeconds(2));
    try (TestServer s =
        TestServer.start(
            dir, engine, o -> o.withLimits(1 << 20, 1 << 20, 1, Duration.ofSeconds(2)))) {
      loadSeries(s, 4, 480);
      CompletableFuture<HttpResponse<String>> heavy =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return s.get(PATHOLOGICAL);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      Thread.sleep(300);
      HttpResponse<String> queued = s.get("/api/v1/query?query=1%2B1&timeout=200ms");
      assertThat(queued.statusCode()).isEqualTo(503);
      assertThat(queued.body())
          .isEqualTo(
              "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out in query"
                  + " queue\"}");
      heavy.get(30, TimeUnit.SECONDS);
      // the slot is free again
      assertThat(s.get("/api/v1/query?query=1%2B1").statusCode()).isEqualTo(200);
    }
  }

  /**
   * The timeout covers the wait for a slot: a query that waited half its timeout for the one slot
   * gets only the other half to evaluate, not a whole further timeout.
   */
  @Test
  void theTimeoutCoversTheWaitForASlot() throws Exception {
    Duration timeout = Duration.ofSeconds(4);
    EngineOptions engine = EngineOptions.DEFAULTS.withTimeout(timeout);
    try (TestServer s =
        TestServer.start(dir, engine, o -> o.withLimits(1 << 20, 1 << 20, 1, timeout))) {
      loadSeries(s, 4, 480);
      CompletableFuture<HttpResponse<String>> first = heavy(s);
      // The first holds the slot until its 4 s run out; the second waits for it about 2 s.
      Thread.sleep(2_000);
      long start = System.nanoTime();
      HttpResponse<String> second = s.get(PATHOLOGICAL);
      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertThat(second.statusCode()).isEqualTo(503);
      assertThat(second.body())
          .startsWith(
              "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out in");
      // About 4 s in all; with a whole further timeout after its wait it took 6 s and more.
      assertThat(tookMs).as("wait and evaluation within one timeout").isLessThan(5_200);
      assertThat(first.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(503);
    }
  }

  private static CompletableFuture<HttpResponse<String>> heavy(TestServer s) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return s.get(PATHOLOGICAL);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  @Test
  void formBodiesOverTheLimitAre413() throws Exception {
    try (TestServer s =
        TestServer.start(
            dir,
            EngineOptions.DEFAULTS,
            o -> o.withLimits(64, 1 << 20, 20, Duration.ofMinutes(2)))) {
      HttpResponse<String> r = s.postForm("/api/v1/query", "query", "x".repeat(200));
      assertThat(r.statusCode()).isEqualTo(413);
      assertThat(r.body()).contains("\"errorType\":\"bad_data\"").contains("limit is 64 bytes");
    }
  }
}
