package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.get;
import static dev.infermon.server.cli.ServeTestSupport.remoteWrite;
import static dev.infermon.server.cli.ServeTestSupport.serve;
import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.server.runtime.Infermon;
import dev.infermon.storage.testing.TmpfsMount;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code infermon serve} with its data on a real full disk (a 4 MiB tmpfs filled by another file):
 * remote writes are refused with 503 naming the cause, counted, and accepted again once there is
 * room. Skipped where a tmpfs cannot be mounted; the web module's {@code RemoteWriteTest} and the
 * tsdb's {@code WalFullDiskTest} cover the same path through {@code /dev/full}.
 */
class FullDiskServeTest {
  @TempDir Path tmp;

  @Test
  void remoteWritesOnAFullDiskAre503WithTheCauseAndResumeWhenThereIsRoom() throws Exception {
    TmpfsMount disk;
    try {
      disk = TmpfsMount.mount(tmp.resolve("disk"), "4m");
    } catch (IOException e) {
      Assumptions.abort("a real full disk needs a tmpfs mount: " + e.getMessage());
      return;
    }
    try (disk) {
      Infermon m =
          serve(
                  "--web.listen-address=127.0.0.1:0",
                  "--storage.tsdb.path=" + disk.dir.resolve("data"),
                  "--web.enable-remote-write-receiver")
              .infermon();
      try {
        long t = System.currentTimeMillis() - 60_000;
        assertThat(remoteWrite(m, ServeCommandTest.writeRequest("before", t, 1)).statusCode())
            .isEqualTo(204);
        fill(disk.dir.resolve("filler"));

        HttpResponse<String> r = null;
        for (int i = 0; i < 100 && (r == null || r.statusCode() == 204); i++) {
          r =
              remoteWrite(
                  m, ServeCommandTest.writeRequest("full_" + i + "_" + "x".repeat(4000), t, i));
        }
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body())
            .startsWith("write-ahead log: cannot write " + disk.dir.resolve("data/wal"))
            .endsWith(": No space left on device\n");
        String metrics = get(m, "/metrics").body();
        assertThat(metrics)
            .contains(
                "infermon_remote_write_rejected_requests_total{reason=\"storage_unavailable\"}")
            .containsPattern("infermon_tsdb_disk_full_errors_total [1-9]")
            .containsPattern("infermon_tsdb_write_failures_total\\{kind=\"wal\"} [1-9]");

        Files.delete(disk.dir.resolve("filler"));
        assertThat(remoteWrite(m, ServeCommandTest.writeRequest("after", t, 2)).statusCode())
            .as("accepted again once there is room")
            .isEqualTo(204);
        assertThat(get(m, "/api/v1/query?query=after&time=" + (t / 1000.0 + 1)).body())
            .contains("\"__name__\":\"after\"");
      } finally {
        m.close();
      }
    }
  }

  /** Writes to {@code file} until the file system is full. */
  private static void fill(Path file) throws IOException {
    byte[] b = new byte[4096];
    try (OutputStream out = Files.newOutputStream(file)) {
      while (true) {
        out.write(b);
        out.flush();
      }
    } catch (IOException e) {
      if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
        throw e;
      }
    }
  }
}
