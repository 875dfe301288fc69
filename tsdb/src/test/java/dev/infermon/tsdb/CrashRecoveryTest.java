package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Querier;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crash recovery for real: a child JVM ({@link CrashChild}) appends and acknowledges commits; the
 * test kills it with SIGKILL ({@code destroyForcibly}) at random moments, restarts it on the same
 * directory, and finally checks that every acknowledged sample is there and that nothing was
 * invented. Bounded: {@value #KILLS} kills, each at most {@value #MAX_RUN_MS} ms after the child is
 * ready.
 */
class CrashRecoveryTest {
  private static final Logger log = LoggerFactory.getLogger(CrashRecoveryTest.class);
  private static final int KILLS = 5;
  private static final long MAX_RUN_MS = 2_500;

  @TempDir Path dir;

  @Test
  void everyAcknowledgedSampleSurvivesKillMinusNineAndNoneIsInvented() throws Exception {
    long seed = System.nanoTime();
    log.info("crash test seed {}", seed);
    Random random = new Random(seed);
    AtomicLong lastAck = new AtomicLong(Long.MIN_VALUE);
    for (int k = 0; k < KILLS; k++) {
      Process child = start();
      try {
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        long startedAt = readReady(out);
        assertThat(startedAt)
            .as("restart %d continues after the last acknowledged commit", k)
            .isGreaterThan(lastAck.get());
        Thread reader = new Thread(() -> drainAcks(out, lastAck), "crash-acks");
        reader.setDaemon(true);
        reader.start();
        Thread.sleep(200 + random.nextInt((int) MAX_RUN_MS - 200));
        child.destroyForcibly();
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("child died").isTrue();
        reader.join(5_000);
        log.info("kill {}: last acknowledged t={}", k, lastAck.get());
      } finally {
        child.destroyForcibly();
      }
    }
    assertThat(lastAck.get()).as("the child made progress").isGreaterThan(CrashChild.START);

    TsdbOptions quiet = CrashChild.options().withCompactionInterval(java.time.Duration.ofHours(1));
    try (Tsdb db = Tsdb.open(dir, quiet);
        Querier q = db.querier()) {
      Map<Labels, List<Sample>> all =
          Samples.readAll(
              q.select(
                  true, Long.MIN_VALUE, Long.MAX_VALUE, List.of(Matcher.metricName("crash_test"))));
      assertThat(all).hasSize(CrashChild.SERIES);
      for (int i = 0; i < CrashChild.SERIES; i++) {
        List<Sample> samples = all.get(CrashChild.series(i));
        long expectedT = CrashChild.START;
        for (Sample s : samples) {
          // Contiguous from START: a hole would be a lost acknowledged commit (all but the last
          // unacknowledged one are acknowledged), a wrong value an invented sample.
          assertThat(s.t()).as("series %d", i).isEqualTo(expectedT);
          assertThat(s.v()).as("series %d at %d", i, s.t()).isEqualTo(CrashChild.value(i, s.t()));
          expectedT += CrashChild.STEP_MS;
        }
        long newest = samples.get(samples.size() - 1).t();
        assertThat(newest)
            .as("series %d holds every acknowledged commit", i)
            .isGreaterThanOrEqualTo(lastAck.get());
        assertThat(newest)
            .as("at most the one commit in flight at the kill goes beyond the last ack")
            .isLessThanOrEqualTo(lastAck.get() + CrashChild.STEP_MS * KILLS);
      }
      assertThat(db.blocks()).as("compaction ran between kills").isNotEmpty();
    }
  }

  private Process start() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb =
        new ProcessBuilder(
            java,
            "-Xmx128m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            CrashChild.class.getName(),
            dir.toString());
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    return pb.start();
  }

  private static long readReady(BufferedReader out) throws Exception {
    long deadline = System.currentTimeMillis() + 20_000;
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith("READY ")) {
        return Long.parseLong(line.substring(6).trim());
      }
      if (System.currentTimeMillis() > deadline) {
        break;
      }
    }
    throw new AssertionError("child did not become ready");
  }

  private static void drainAcks(BufferedReader out, AtomicLong lastAck) {
    try {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("ACK ")) {
          lastAck.set(Long.parseLong(line.substring(4).trim()));
        }
      }
    } catch (java.io.IOException | NumberFormatException e) {
      // the child died mid-line: the last complete ACK counts
    }
  }
}
