package dev.infermon.web.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.web.TestServer;
import dev.infermon.web.remotewrite.WriteRequestEncoder.RawSeries;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RemoteWriteTest {
  static final long T = 1_700_000_000_000L;
  static final String PB = "application/x-protobuf";

  @TempDir Path dir;

  private TestServer start() throws Exception {
    return TestServer.start(
        dir,
        EngineOptions.DEFAULTS,
        o ->
            o.withRemoteWriteReceiver(true)
                .withLimits(1 << 20, 4096, 20, java.time.Duration.ofMinutes(2)));
  }

  @Test
  void storesSamplesAndAnswers204() throws Exception {
    try (TestServer s = start()) {
      Labels l = Labels.of("__name__", "rw_metric", "job", "agent");
      byte[] body =
          WriteRequestEncoder.encode(
              List.of(RawSeries.of(l, new long[] {T, T + 15_000}, new double[] {1, 2.5})));
      HttpResponse<String> r = s.post("/api/v1/write", body, PB);
      assertThat(r.statusCode()).isEqualTo(204);
      HttpResponse<String> q = s.get("/api/v1/query?query=rw_metric&time=1700000015");
      assertThat(q.body()).contains("\"value\":[1700000015,\"2.5\"]");
    }
  }

  @Test
  void outOfOrderRejectsTheWholeRequestWith400() throws Exception {
    try (TestServer s = start()) {
      Labels a = Labels.of("__name__", "a", "job", "x");
      Labels b = Labels.of("__name__", "b", "job", "x");
      s.post(
          "/api/v1/write",
          WriteRequestEncoder.encode(
              List.of(RawSeries.of(a, new long[] {T + 60_000}, new double[] {1}))),
          PB);
      HttpResponse<String> r =
          s.post(
              "/api/v1/write",
              WriteRequestEncoder.encode(
                  List.of(
                      RawSeries.of(b, new long[] {T}, new double[] {7}),
                      RawSeries.of(a, new long[] {T}, new double[] {2}))),
              PB);
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).startsWith("out of order sample").contains("a{job=\"x\"}");
      // one transaction: the valid series b of the refused request was not stored either
      assertThat(s.get("/api/v1/series?match%5B%5D=b").body())
          .isEqualTo("{\"status\":\"success\",\"data\":[]}");
    }
  }

  @Test
  void invalidLabelsAndBodiesAre400WithAReason() throws Exception {
    try (TestServer s = start()) {
      RawSeries badName =
          new RawSeries(
              List.of("__name__", "m", "bad-name", "v"), new long[] {T}, new double[] {1});
      RawSeries dup =
          new RawSeries(
              List.of("__name__", "m", "a", "1", "a", "2"), new long[] {T}, new double[] {1});
      assertThat(s.post("/api/v1/write", WriteRequestEncoder.encode(List.of(badName)), PB).body())
          .isEqualTo("invalid label name \"bad-name\" in series 0 of the request\n");
      assertThat(s.post("/api/v1/write", WriteRequestEncoder.encode(List.of(dup)), PB).body())
          .isEqualTo("duplicate label name \"a\" in series 0 of the request\n");
      HttpResponse<String> garbage = s.post("/api/v1/write", "garbage".getBytes(), PB);
      assertThat(garbage.statusCode()).isEqualTo(400);
      assertThat(garbage.body()).isEqualTo("snappy: corrupt input\n");
    }
  }

  @Test
  void bodiesOverTheLimitAre413() throws Exception {
    try (TestServer s = start()) {
      HttpResponse<String> r = s.post("/api/v1/write", new byte[8192], PB);
      assertThat(r.statusCode()).isEqualTo(413);
      assertThat(r.body()).contains("the limit is 4096 bytes");
    }
  }

  @Test
  void disabledReceiverIs404WithTheFlagName() throws Exception {
    try (TestServer s = TestServer.start(dir, EngineOptions.DEFAULTS, o -> o)) {
      HttpResponse<String> r = s.post("/api/v1/write", new byte[0], PB);
      assertThat(r.statusCode()).isEqualTo(404);
      assertThat(r.body()).contains("--web.enable-remote-write-receiver");
    }
  }
}
