package dev.infermon.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedOutputStream;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import dev.infermon.tsdb.Tsdb;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xerial.snappy.Snappy;

/**
 * {@code kill -9} of a real {@code infermon serve} (the jar's main class in a child JVM, on
 * 127.0.0.1) while it takes remote writes, half the kills landing while a compaction writes its
 * block or checkpoint: every acknowledged sample must be there after the restarts, and nothing
 * else. Requests step sample time by a minute, from a week ago towards now, so the head becomes
 * compactable every three hours of sample time (180 requests) and commits start compactions
 * constantly. Bounded: {@value #KILLS} kills.
 */
class KillNineServeTest {
  private static final Logger log = LoggerFactory.getLogger(KillNineServeTest.class);
  static final int KILLS = 8;
  static final int SERIES = 300;
  static final long STEP_MS = 60_000;
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir Path dir;

  static final long BASE =
      (System.currentTimeMillis() - Duration.ofDays(7).toMillis()) / 60_000 * 60_000;

  static Labels series(int i) {
    return Labels.of("__name__", "kill9_test", "i", Integer.toString(i));
  }

  static double value(int i, long k) {
    return i * 1_000_000.0 + k;
  }

  @Test
  void everyAcknowledgedSampleSurvivesKillMinusNineDuringIngestAndCompaction() throws Exception {
    long seed = System.nanoTime();
    log.info("kill -9 test seed {}", seed);
    Random random = new Random(seed);
    Path data = dir.resolve("data");
    long acked = -1; // the highest request index answered 204, all before it too
    int inCompaction = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      int port = freePort();
      Process p = start(port, data, kill);
      try {
        awaitReady(p, port, kill);
        AtomicInteger next = new AtomicInteger((int) acked + 1);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong ackedNow = new AtomicLong(acked);
        Thread writer =
            new Thread(() -> ingest(port, next, ackedNow, stop), "kill9-writer-" + kill);
        writer.setDaemon(true);
        writer.start();
        // the kill lands after this life acknowledged something: on a loaded machine a compaction
        // can start before the first write of a life is answered
        awaitProgress(ackedNow, acked);
        boolean duringCompaction = kill % 2 == 1 && awaitCompaction(data, Duration.ofSeconds(8));
        if (!duringCompaction) {
          Thread.sleep(300 + random.nextInt(1200));
        }
        p.destroyForcibly(); // SIGKILL
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("the child died").isTrue();
        stop.set(true);
        writer.join(10_000);
        if (duringCompaction) {
          inCompaction++;
        }
        assertThat(ackedNow.get())
            .as("kill %d: the writer made progress", kill)
            .isGreaterThan(acked);
        acked = ackedNow.get();
        log.info(
            "kill {}{}: acknowledged up to request {}",
            kill,
            duringCompaction ? " (in compaction)" : "",
            acked);
      } finally {
        p.destroyForcibly();
      }
    }
    assertThat(inCompaction).as("kills that landed while a compaction was writing").isPositive();

    // Queryable after a restart: every series holds every acknowledged request, nothing more than
    // the one in flight at each kill, and only the values sent.
    int port = freePort();
    Process p = start(port, data, KILLS);
    try {
      awaitReady(p, port, KILLS);
      String body =
          get(
              port,
              "/api/v1/query?query=count(count_over_time(kill9_test[8d])%20%3E%3D%20"
                  + (acked + 1)
                  + ")");
      assertThat(body)
          .as("every series counts at least the acknowledged samples")
          .contains("\"value\":[")
          .contains(",\"" + SERIES + "\"]");
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    try (Tsdb db = Tsdb.open(data);
        Querier q = db.querier()) {
      SeriesSet set =
          q.select(true, Long.MIN_VALUE, Long.MAX_VALUE, List.of(Matcher.metricName("kill9_test")));
      int seen = 0;
      while (set.next()) {
        Series s = set.at();
        int i = Integer.parseInt(s.labels().get("i"));
        SampleIterator it = s.iterator();
        long k = 0;
        while (it.next()) {
          assertThat(it.timestamp())
              .as("series %d, request %d", i, k)
              .isEqualTo(BASE + k * STEP_MS);
          assertThat(it.value()).as("series %d, request %d", i, k).isEqualTo(value(i, k));
          k++;
        }
        assertThat(k).as("series %d holds every acknowledged request", i).isGreaterThan(acked);
        assertThat(k)
            .as("series %d: at most the request in flight at each kill beyond the last ack", i)
            .isLessThanOrEqualTo(acked + 1 + KILLS);
        seen++;
      }
      assertThat(seen).isEqualTo(SERIES);
    }
  }

  /** Sends requests {@code next, next+1, ...} until stopped or refused; records the acks. */
  /** Waits (at most 30 s) until a request beyond {@code before} was acknowledged. */
  private static void awaitProgress(AtomicLong acked, long before) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (acked.get() <= before && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  private static void ingest(int port, AtomicInteger next, AtomicLong acked, AtomicBoolean stop) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    while (!stop.get()) {
      int k = next.get();
      if (BASE + (long) k * STEP_MS > System.currentTimeMillis()) {
        return; // caught up with the clock
      }
      try {
        HttpResponse<Void> r =
            client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/write"))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/x-protobuf")
                    .header("Content-Encoding", "snappy")
                    .header("X-Prometheus-Remote-Write-Version", "0.1.0")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(request(k)))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() != 204) {
          throw new AssertionError("request " + k + " answered " + r.statusCode());
        }
        acked.set(k);
        next.incrementAndGet();
      } catch (IOException e) {
        return; // killed
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Request {@code k}: one sample per series at {@code BASE + k} minutes. */
  static byte[] request(long k) throws IOException {
    ByteArrayOutputStream req = new ByteArrayOutputStream();
    CodedOutputStream r = CodedOutputStream.newInstance(req);
    for (int i = 0; i < SERIES; i++) {
      ByteArrayOutputStream ts = new ByteArrayOutputStream();
      CodedOutputStream c = CodedOutputStream.newInstance(ts);
      Labels l = series(i);
      for (int j = 0; j < l.size(); j++) {
        ByteArrayOutputStream label = new ByteArrayOutputStream();
        CodedOutputStream lc = CodedOutputStream.newInstance(label);
        lc.writeString(1, l.name(j));
        lc.writeString(2, l.value(j));
        lc.flush();
        c.writeByteArray(1, label.toByteArray());
      }
      ByteArrayOutputStream sample = new ByteArrayOutputStream();
      CodedOutputStream sc = CodedOutputStream.newInstance(sample);
      sc.writeDouble(1, value(i, k));
      sc.writeInt64(2, BASE + k * STEP_MS);
      sc.flush();
      c.writeByteArray(2, sample.toByteArray());
      c.flush();
      r.writeByteArray(1, ts.toByteArray());
    }
    r.flush();
    return Snappy.compress(req.toByteArray());
  }

  /**
   * Waits until a compaction is writing: a block or a checkpoint under its temporary name. False
   * when none was seen in time.
   */
  private static boolean awaitCompaction(Path data, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Path wal = data.resolve("wal");
    while (System.nanoTime() < deadline) {
      if (hasTemporary(data, ".tmp-for-creation") || hasTemporary(wal, ".tmp")) {
        return true;
      }
      Thread.onSpinWait();
    }
    return false;
  }

  private static boolean hasTemporary(Path dir, String suffix) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      for (Path p : s) {
        if (p.getFileName().toString().endsWith(suffix)) {
          return true;
        }
      }
    } catch (java.nio.file.NoSuchFileException e) {
      return false;
    }
    return false;
  }

  private Process start(int port, Path data, int run) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb =
        new ProcessBuilder(
            java,
            "-Xmx256m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            "dev.infermon.server.Main",
            "serve",
            "--config.file=" + config(),
            "--web.listen-address=127.0.0.1:" + port,
            "--storage.tsdb.path=" + data,
            "--web.enable-remote-write-receiver",
            "--log.level=warn");
    pb.redirectErrorStream(true);
    pb.redirectOutput(dir.resolve("serve-" + run + ".log").toFile());
    return pb.start();
  }

  /** No scrape jobs: only remote writes reach the storage. */
  private Path config() throws IOException {
    Path f = dir.resolve("infermon.yml");
    Files.writeString(f, "global:\n  scrape_interval: 1m\n");
    return f;
  }

  private void awaitReady(Process p, int port, int run) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        p.waitFor();
        throw new AssertionError(
            "serve exited with "
                + p.exitValue()
                + ":\n"
                + Files.readString(dir.resolve("serve-" + run + ".log")));
      }
      try {
        HttpResponse<String> r =
            HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready"))
                    .timeout(Duration.ofSeconds(2))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(50);
    }
    throw new AssertionError("serve did not become ready in 60 s");
  }

  private static String get(int port, String path) throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
