package dev.infermon.remote.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.model.labels.Labels;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.remote.agent.AgentStorage;
import dev.infermon.remote.query.RemoteQueryBackend;
import dev.infermon.remote.write.QueueManager;
import dev.infermon.remote.write.QueueStats;
import dev.infermon.remote.write.TestEndpoints;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Fanout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The receiver goes away for 15 s (fifteen times the longest backoff; the tiny queue fills in about
 * a second) while infermon keeps scraping, then comes back. Two queues see the same samples: a
 * roomy one loses nothing; a tiny one loses what it cannot hold, and counts exactly that. Each
 * queue tags its copy with an external label, so both land in the same receiver as distinct series
 * and the receiver's own counts are the proof.
 */
class ReceiverOutageTest {
  private static final int SERIES = 50;
  private static final long SCRAPE_EVERY_MS = 200;
  private static final long OUTAGE_MS = 15_000;

  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @EnumSource(Receiver.Kind.class)
  void noSampleIsLostWhileTheQueueHasRoomAndTheRestIsCounted(Receiver.Kind kind) throws Exception {
    Assumptions.assumeTrue(kind.installed(), kind + " is not installed");
    try (Receiver receiver = Receiver.start(kind, Files.createDirectories(tmp.resolve("r")))) {
      String fast =
          "    queue_config:\n"
              + "      batch_send_deadline: 100ms\n"
              + "      min_backoff: 30ms\n"
              + "      max_backoff: 1s\n";
      QueueManager roomy =
          QueueManager.start(
              TestEndpoints.endpoint(receiver.writeUrl(), fast + "      capacity: 50000\n"),
              Labels.of("queue", "roomy"),
              "infermon/test");
      QueueManager tiny =
          QueueManager.start(
              TestEndpoints.endpoint(
                  receiver.writeUrl() + "?tiny",
                  "    name: tiny\n"
                      + fast
                      + "      capacity: 300\n"
                      + "      max_shards: 1\n"
                      + "      max_samples_per_send: 100\n"),
              Labels.of("queue", "tiny"),
              "infermon/test");
      try {
        Fanout storage = Fanout.of(new AgentStorage(), List.of(roomy, tiny));
        long from = System.currentTimeMillis();
        long written = scrapeFor(storage, 3_000);
        receiver.stop();
        written += scrapeFor(storage, OUTAGE_MS);
        receiver.startAgain();
        written += scrapeFor(storage, 3_000);

        awaitDrained(roomy);
        awaitDrained(tiny);
        receiver.flush();

        QueueStats r = roomy.stats();
        QueueStats t = tiny.stats();
        assertThat(r.retriedSamples()).as("the outage was noticed: %s", r).isPositive();
        assertThat(r.droppedQueueFull() + r.failedSamples() + r.droppedAtShutdown()).isZero();
        assertThat(r.sentSamples()).isEqualTo(written);
        assertThat(stored(receiver, "roomy", from)).isEqualTo(written);

        assertThat(t.droppedQueueFull()).as("the tiny queue overflowed: %s", t).isPositive();
        assertThat(t.sentSamples() + t.droppedQueueFull() + t.failedSamples()).isEqualTo(written);
        assertThat(stored(receiver, "tiny", from)).isEqualTo(t.sentSamples());
      } finally {
        roomy.close(Duration.ZERO);
        tiny.close(Duration.ZERO);
      }
    }
  }

  /** Scrapes every 200 ms for {@code millis}; returns the samples committed. */
  private static long scrapeFor(Fanout storage, long millis) throws InterruptedException {
    long n = 0;
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (System.nanoTime() < until) {
      long t = System.currentTimeMillis();
      Appender a = storage.appender();
      for (int s = 0; s < SERIES; s++) {
        a.append(Labels.of("__name__", "outage_test", "s", Integer.toString(s)), t, s);
      }
      a.commit();
      n += SERIES;
      Thread.sleep(SCRAPE_EVERY_MS);
    }
    return n;
  }

  private static void awaitDrained(QueueManager q) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (q.stats().pendingSamples() > 0 && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    assertThat(q.stats().pendingSamples()).as(q.name() + " drained: " + q.stats()).isZero();
  }

  /** Samples of one queue's copy in the receiver, counted from the raw samples it returns. */
  private static long stored(Receiver r, String queue, long from) {
    long minutes = (System.currentTimeMillis() - from) / 60_000 + 2;
    Matrix raw =
        (Matrix)
            new RemoteQueryBackend(
                    r.base(), Duration.ofSeconds(30), HttpClientConfig.DEFAULT, "infermon/test")
                .instantQuery(
                    "outage_test{queue=\"" + queue + "\"}[" + minutes + "m]",
                    System.currentTimeMillis())
                .value();
    long n = 0;
    for (TimeSeries s : raw.series()) {
      n += s.size();
    }
    return n;
  }
}
