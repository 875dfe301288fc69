package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.get;
import static dev.infermon.server.cli.ServeTestSupport.post;
import static dev.infermon.server.cli.ServeTestSupport.serve;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedOutputStream;
import dev.infermon.server.runtime.Infermon;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.xerial.snappy.Snappy;

/** {@code infermon serve} end to end, in-process, on 127.0.0.1 and a free port. */
class ServeCommandTest {
  @TempDir Path dir;

  private Path config(String yaml) throws Exception {
    Path f = dir.resolve("infermon.yml");
    Files.writeString(f, yaml);
    return f;
  }

  /** A one-series, one-sample remote-write body. */
  static byte[] writeRequest(String metric, long t, double v) throws Exception {
    ByteArrayOutputStream label = new ByteArrayOutputStream();
    CodedOutputStream l = CodedOutputStream.newInstance(label);
    l.writeString(1, "__name__");
    l.writeString(2, metric);
    l.flush();
    ByteArrayOutputStream sample = new ByteArrayOutputStream();
    CodedOutputStream s = CodedOutputStream.newInstance(sample);
    s.writeDouble(1, v);
    s.writeInt64(2, t);
    s.flush();
    ByteArrayOutputStream ts = new ByteArrayOutputStream();
    CodedOutputStream c = CodedOutputStream.newInstance(ts);
    c.writeByteArray(1, label.toByteArray());
    c.writeByteArray(2, sample.toByteArray());
    c.flush();
    ByteArrayOutputStream req = new ByteArrayOutputStream();
    CodedOutputStream r = CodedOutputStream.newInstance(req);
    r.writeByteArray(1, ts.toByteArray());
    r.flush();
    return Snappy.compress(req.toByteArray());
  }

  @Test
  void servesTheApiAndKeepsRemoteWrittenSamplesAcrossARestart() throws Exception {
    // without the dashboard's rollups, whose writer's own queries the engine counts too
    Path cfg = config("global:\n  scrape_interval: 30s\nllm:\n  dashboard:\n    rollups: false\n");
    String[] args = {
      "--config.file=" + cfg,
      "--web.listen-address=127.0.0.1:0",
      "--storage.tsdb.path=" + dir.resolve("data"),
      "--web.enable-remote-write-receiver",
    };
    long t = System.currentTimeMillis() - 60_000;
    Infermon first = serve(args).infermon();
    try {
      assertThat(get(first, "/-/ready").statusCode()).isEqualTo(200);
      HttpResponse<String> w =
          ServeTestSupport.remoteWrite(first, writeRequest("persisted", t, 42));
      assertThat(w.statusCode()).isEqualTo(204);
      assertThat(get(first, "/api/v1/status/config").body()).contains("scrape_interval: 30s");
    } finally {
      first.close();
    }
    // A graceful stop flushed the write-ahead log: the sample is replayed on the next start.
    Infermon second = serve(args).infermon();
    try {
      HttpResponse<String> q =
          get(second, "/api/v1/query?query=persisted&time=" + (t / 1000.0 + 1));
      assertThat(q.body()).contains("\"__name__\":\"persisted\"").contains("\"42\"]");
      assertThat(get(second, "/metrics").body())
          .contains("infermon_tsdb_wal_replay_samples 1")
          .contains("infermon_engine_queries_total{result=\"success\",type=\"instant\"} 1");
    } finally {
      second.close();
    }
  }

  @Test
  void aBadConfigOnReloadIsRefusedWithTheReasonAndTheOldOneKeepsRunning() throws Exception {
    Path cfg = config("global:\n  scrape_interval: 30s\n");
    Infermon m =
        serve(
                "--config.file=" + cfg,
                "--web.listen-address=127.0.0.1:0",
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.enable-lifecycle")
            .infermon();
    try {
      Files.writeString(cfg, "global:\n  scrape_intervall: 10s\n");
      HttpResponse<String> bad = post(m, "/-/reload", new byte[0], "text/plain");
      assertThat(bad.statusCode()).isEqualTo(500);
      assertThat(bad.body())
          .startsWith("failed to reload config: ")
          .contains("global.scrape_intervall")
          .contains("did you mean scrape_interval");
      assertThat(get(m, "/api/v1/status/config").body()).contains("scrape_interval: 30s");

      Files.writeString(cfg, "global:\n  scrape_interval: 10s\n");
      assertThat(post(m, "/-/reload", new byte[0], "text/plain").statusCode()).isEqualTo(200);
      assertThat(get(m, "/api/v1/status/config").body()).contains("scrape_interval: 10s");
    } finally {
      m.close();
    }
  }

  @Test
  void flagsWinOverTheFileAndSecretsStayHidden() throws Exception {
    Path cfg =
        config(
            "web:\n  listen_address: 127.0.0.1:1\n  auth:\n    bearer_tokens: [top-secret-token]\n");
    Infermon m =
        serve(
                "--config.file=" + cfg,
                "--web.listen-address=127.0.0.1:0",
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--query.max-concurrency=3")
            .infermon();
    try {
      assertThat(m.port()).isNotEqualTo(1);
      HttpResponse<String> noAuth = get(m, "/api/v1/status/config");
      assertThat(noAuth.statusCode()).isEqualTo(401);
      HttpResponse<String> cfgResp =
          ServeTestSupport.HTTP.send(
              java.net.http.HttpRequest.newBuilder(
                      java.net.URI.create("http://127.0.0.1:" + m.port() + "/api/v1/status/config"))
                  .header("Authorization", "Bearer top-secret-token")
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(cfgResp.statusCode()).isEqualTo(200);
      assertThat(cfgResp.body()).doesNotContain("top-secret-token").contains("<secret>");
    } finally {
      m.close();
    }
  }

  @Test
  void anInvalidConfigFileStopsTheStartWithExitCode1() throws Exception {
    Path cfg = config("scrape_configs:\n  - job_name: a\n    scrape_intervall: 5s\n");
    ServeTestSupport.Started s =
        serve(
            "--config.file=" + cfg,
            "--web.listen-address=127.0.0.1:0",
            "--storage.tsdb.path=" + dir.resolve("data"));
    assertThat(s.infermon()).isNull();
    assertThat(s.exitCode()).isEqualTo(1);
    assertThat(s.err()).contains("scrape_configs[0].scrape_intervall");
  }

  /** Fatal start-up I/O errors: the operation, the file and the reason, not just a path. */
  record StartupError(String name, String file, String expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<StartupError> startupErrors() {
    return Stream.of(
        new StartupError(
            "the data directory is a file",
            "data",
            "infermon: cannot create the data directory DATA: not a directory"),
        new StartupError(
            "the write-ahead log directory is a file",
            "data/wal",
            "infermon: cannot open the write-ahead log in DATA/wal: cannot create the directory"
                + " DATA/wal: not a directory"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("startupErrors")
  void aStartUpThatCannotOpenTheStorageSaysWhatFailedWhereAndWhy(StartupError c) throws Exception {
    Path data = dir.resolve("data");
    Files.createDirectories(dir.resolve(c.file()).getParent());
    Files.writeString(dir.resolve(c.file()), "not a directory");
    ServeTestSupport.Started s =
        serve("--web.listen-address=127.0.0.1:0", "--storage.tsdb.path=" + data);
    assertThat(s.infermon()).isNull();
    assertThat(s.exitCode()).isEqualTo(1);
    assertThat(s.err().trim()).isEqualTo(c.expected().replace("DATA", data.toString()));
  }

  @Test
  void readyAndTheMetricsSayWhatStartUpSkippedOfADamagedLog() throws Exception {
    String[] args = {
      "--web.listen-address=127.0.0.1:0",
      "--storage.tsdb.path=" + dir.resolve("data"),
      "--web.enable-remote-write-receiver",
    };
    long t = System.currentTimeMillis() - 60_000;
    Infermon first = serve(args).infermon();
    try {
      for (int i = 0; i < 3; i++) {
        assertThat(
                ServeTestSupport.remoteWrite(first, writeRequest("m" + i, t + i, i)).statusCode())
            .isEqualTo(204);
      }
    } finally {
      first.close();
    }
    Path segment = dir.resolve("data/wal/00000000");
    byte[] b = Files.readAllBytes(segment);
    int at = new String(b, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf("m1");
    b[at] ^= 0x5A; // inside the second request's series record
    Files.write(segment, b);

    Infermon second = serve(args).infermon();
    try {
      HttpResponse<String> ready = get(second, "/-/ready");
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(ready.body())
          .startsWith("infermon is Ready.\nData was skipped at start-up:\n- write-ahead log")
          .contains(segment + " is damaged at bytes [");
      assertThat(get(second, "/metrics").body())
          .contains("infermon_tsdb_wal_corruptions_total 1.0")
          .contains("infermon_tsdb_wal_repairs_total 1.0")
          .contains("infermon_tsdb_wal_lost_samples_total{reason=\"series_record_lost\"} 1.0")
          .contains("infermon_tsdb_blocks_skipped 0");
      assertThat(get(second, "/api/v1/query?query=m2&time=" + (t / 1000.0 + 1)).body())
          .as("the record after the damaged one was read")
          .contains("\"__name__\":\"m2\"");
    } finally {
      second.close();
    }
  }

  @Test
  void anInvalidFlagIsAUsageError() {
    ServeTestSupport.Started s = serve("--query.timeout=soon");
    assertThat(s.exitCode()).isEqualTo(2);
    assertThat(s.err()).contains("invalid duration for --query.timeout: \"soon\"");
  }
}
