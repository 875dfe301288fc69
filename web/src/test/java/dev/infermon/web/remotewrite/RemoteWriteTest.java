package dev.infermon.web.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.Appender;
import dev.infermon.storage.StorageUnavailableException;
import dev.infermon.web.TestServer;
import dev.infermon.web.remotewrite.WriteRequestEncoder.RawSeries;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

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

  /** A request as the specification's senders make it. */
  static HttpResponse<String> write(TestServer s, byte[] body) throws Exception {
    return s.postWithHeaders(
        "/api/v1/write",
        body,
        "Content-Type",
        PB,
        "Content-Encoding",
        "snappy",
        "X-Prometheus-Remote-Write-Version",
        "0.1.0");
  }

  static byte[] oneSample(String name, long t, double v) throws IOException {
    return WriteRequestEncoder.encode(
        List.of(
            RawSeries.of(
                Labels.of("__name__", name, "job", "agent"), new long[] {t}, new double[] {v})));
  }

  @Test
  void storesSamplesAndAnswers204() throws Exception {
    try (TestServer s = start()) {
      Labels l = Labels.of("__name__", "rw_metric", "job", "agent");
      byte[] body =
          WriteRequestEncoder.encode(
              List.of(RawSeries.of(l, new long[] {T, T + 15_000}, new double[] {1, 2.5})));
      HttpResponse<String> r = write(s, body);
      assertThat(r.statusCode()).isEqualTo(204);
      HttpResponse<String> q = s.get("/api/v1/query?query=rw_metric&time=1700000015");
      assertThat(q.body()).contains("\"value\":[1700000015,\"2.5\"]");
    }
  }

  /**
   * Content-Type and Content-Encoding as the remote-write specifications require them. What a web
   * page can send cross-site without a preflight (no Content-Type, a form's, text/plain; never a
   * Content-Encoding) is refused, and so is remote write 2.0, with 415 as its specification asks of
   * a receiver that does not support it.
   */
  record Headers(String name, String contentType, String contentEncoding, int status, String body) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Headers> headers() {
    String v2 = "io.prometheus.write.v2.Request";
    return Stream.of(
        new Headers("1.0 as the spec says", PB, "snappy", 204, ""),
        new Headers("1.0 named", PB + ";proto=prometheus.WriteRequest", "snappy", 204, ""),
        new Headers(
            "1.0, spaces and case",
            "Application/X-Protobuf; proto=prometheus.WriteRequest",
            "Snappy",
            204,
            ""),
        new Headers(
            "2.0",
            PB + ";proto=" + v2,
            "snappy",
            415,
            v2
                + " protobuf message is not accepted by this server; only accepts"
                + " prometheus.WriteRequest\n"),
        new Headers(
            "unknown message",
            PB + ";proto=foo.Bar",
            "snappy",
            415,
            "got application/x-protobuf;proto=foo.Bar content type; unknown remote write protobuf"
                + " message foo.Bar, supported: prometheus.WriteRequest\n"),
        new Headers(
            "no Content-Type (fetch with a blob, cross-site)",
            null,
            null,
            415,
            "Content-Type: application/x-protobuf is required (remote write 1.0)\n"),
        new Headers(
            "text/plain (a cross-site simple request)",
            "text/plain",
            null,
            415,
            "expected application/x-protobuf as the first (media) part, got text/plain"
                + " content-type\n"),
        new Headers(
            "a form's",
            "application/x-www-form-urlencoded",
            null,
            415,
            "expected application/x-protobuf as the first (media) part, got"
                + " application/x-www-form-urlencoded content-type\n"),
        new Headers(
            "multipart form",
            "multipart/form-data; boundary=x",
            null,
            415,
            "expected application/x-protobuf as the first (media) part, got"
                + " multipart/form-data; boundary=x content-type\n"),
        new Headers(
            "no Content-Encoding",
            PB,
            null,
            415,
            "Content-Encoding: snappy is required (remote write 1.0)\n"),
        new Headers(
            "gzip",
            PB,
            "gzip",
            415,
            "gzip encoding (compression) is not accepted by this server; only snappy is"
                + " acceptable\n"),
        new Headers(
            "a parameter without a value",
            PB + ";proto",
            "snappy",
            415,
            "expected parameters to be key-values (RFC 9110), got proto in"
                + " application/x-protobuf;proto content-type\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("headers")
  void requestsAreAcceptedOnlyWithTheHeadersTheSpecificationRequires(Headers h) throws Exception {
    try (TestServer s = start()) {
      List<String> hs = new java.util.ArrayList<>();
      if (h.contentType() != null) {
        hs.addAll(List.of("Content-Type", h.contentType()));
      }
      if (h.contentEncoding() != null) {
        hs.addAll(List.of("Content-Encoding", h.contentEncoding()));
      }
      HttpResponse<String> r =
          s.postWithHeaders("/api/v1/write", oneSample("hdr", T, 1), hs.toArray(new String[0]));
      assertThat(r.statusCode()).isEqualTo(h.status());
      assertThat(r.body()).isEqualTo(h.body());
      assertThat(s.get("/api/v1/series?match%5B%5D=hdr").body())
          .as("stored only when accepted")
          .isEqualTo(
              h.status() == 204
                  ? "{\"status\":\"success\",\"data\":[{\"__name__\":\"hdr\",\"job\":\"agent\"}]}"
                  : "{\"status\":\"success\",\"data\":[]}");
    }
  }

  @Test
  void outOfOrderRejectsTheWholeRequestWith400() throws Exception {
    try (TestServer s = start()) {
      Labels a = Labels.of("__name__", "a", "job", "x");
      Labels b = Labels.of("__name__", "b", "job", "x");
      write(
          s,
          WriteRequestEncoder.encode(
              List.of(RawSeries.of(a, new long[] {T + 60_000}, new double[] {1}))));
      HttpResponse<String> r =
          write(
              s,
              WriteRequestEncoder.encode(
                  List.of(
                      RawSeries.of(b, new long[] {T}, new double[] {7}),
                      RawSeries.of(a, new long[] {T}, new double[] {2}))));
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).startsWith("out of order sample").contains("a{job=\"x\"}");
      // one transaction: the valid series b of the refused request was not stored either
      assertThat(s.get("/api/v1/series?match%5B%5D=b").body())
          .isEqualTo("{\"status\":\"success\",\"data\":[]}");
    }
  }

  @Test
  void aSampleFarInTheFutureIs400NamingSeriesTimeAndLimitAndStopsNothingElse() throws Exception {
    try (TestServer s = start()) {
      long now = System.currentTimeMillis();
      long future = now + 30L * 24 * 3_600_000;
      HttpResponse<String> r = write(s, oneSample("ahead", future, 1));
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body())
          .startsWith("out of bounds: timestamp is too far in the future: sample at t=" + future)
          .contains("ahead{job=\"agent\"}")
          .contains("future window of 600 s");
      assertThat(r.body().split("ahead\\{job=\"agent\"}", -1)).as("named once").hasSize(2);

      assertThat(write(s, oneSample("present", now, 2)).statusCode())
          .as("present samples of any series are still taken")
          .isEqualTo(204);
      assertThat(write(s, oneSample("ahead", now, 3)).statusCode()).isEqualTo(204);
      assertThat(s.tsdb.headStats().tooFarInFuture()).isEqualTo(1);
    }
  }

  @Test
  void aStorageThatCannotWriteIs503WithTheCauseCountedAndLoggedOncePerInterval() throws Exception {
    StorageUnavailableException full = fullDisk();
    Logger logger = (Logger) LoggerFactory.getLogger(RemoteWriteHandler.class);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    logger.addAppender(logs);
    try (TestServer s =
        TestServer.start(
            dir,
            EngineOptions.DEFAULTS,
            o -> o.withRemoteWriteReceiver(true),
            b -> b.appendable(() -> () -> new FailingCommit(full)))) {
      for (int i = 0; i < 5; i++) {
        HttpResponse<String> r = write(s, oneSample("m", T + i, i));
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body())
            .isEqualTo(
                "write-ahead log: cannot write data/wal/00000002: No space left on device\n");
      }
      assertThat(s.get("/metrics").body())
          .contains(
              "infermon_remote_write_rejected_requests_total{reason=\"storage_unavailable\"} 5.0");
    } finally {
      logger.detachAppender(logs);
    }
    assertThat(logs.list).as("one line for five requests").hasSize(1);
    ILoggingEvent e = logs.list.get(0);
    assertThat(e.getFormattedMessage())
        .contains("No space left on device")
        .doesNotContain("already committed");
    assertThat(e.getThrowableProxy()).as("no stack trace").isNull();
  }

  /** What the tsdb's write-ahead log throws on a full disk, with the kernel's own ENOSPC. */
  static StorageUnavailableException fullDisk() throws IOException {
    try (FileChannel devFull = FileChannel.open(Path.of("/dev/full"), StandardOpenOption.WRITE)) {
      devFull.write(ByteBuffer.wrap(new byte[] {1}));
      throw new AssertionError("/dev/full accepted a write");
    } catch (IOException e) {
      return new StorageUnavailableException(
          "write-ahead log: cannot write data/wal/00000002: " + e.getMessage(), e);
    }
  }

  /**
   * An appender whose commit fails as the head's does on a full disk, and which, like the head
   * before the fix, refuses a rollback after its commit.
   */
  static final class FailingCommit implements Appender {
    private final StorageUnavailableException failure;
    private boolean done;

    FailingCommit(StorageUnavailableException failure) {
      this.failure = failure;
    }

    @Override
    public long append(long ref, Labels labels, long t, double v) {
      return 1;
    }

    @Override
    public void commit() {
      done = true;
      throw failure;
    }

    @Override
    public void rollback() {
      if (done) {
        throw new IllegalStateException("appender already committed or rolled back");
      }
      done = true;
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
      assertThat(write(s, WriteRequestEncoder.encode(List.of(badName))).body())
          .isEqualTo("invalid label name \"bad-name\" in series 0 of the request\n");
      assertThat(write(s, WriteRequestEncoder.encode(List.of(dup))).body())
          .isEqualTo("duplicate label name \"a\" in series 0 of the request\n");
      RawSeries badMetric =
          new RawSeries(List.of("__name__", "1m", "a", "1"), new long[] {T}, new double[] {1});
      assertThat(write(s, WriteRequestEncoder.encode(List.of(badMetric))).body())
          .isEqualTo("invalid metric name \"1m\" in series 0 of the request\n");
      RawSeries colon =
          new RawSeries(List.of("__name__", "vllm:x", "a", "1"), new long[] {T}, new double[] {1});
      assertThat(write(s, WriteRequestEncoder.encode(List.of(colon))).statusCode()).isEqualTo(204);
      HttpResponse<String> garbage = write(s, "garbage".getBytes());
      assertThat(garbage.statusCode()).isEqualTo(400);
      assertThat(garbage.body()).isEqualTo("snappy: corrupt input\n");
    }
  }

  @Test
  void bodiesOverTheLimitAre413() throws Exception {
    try (TestServer s = start()) {
      HttpResponse<String> r = write(s, new byte[8192]);
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
