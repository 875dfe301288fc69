package dev.infermon.remote.write;

import static dev.infermon.remote.write.TestEndpoints.endpoint;
import static dev.infermon.remote.write.TestEndpoints.fanout;
import static dev.infermon.remote.write.TestEndpoints.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.remote.testing.FakeReceiver;
import dev.infermon.remote.testing.WireDecoder;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Fanout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The sender against a scripted receiver on 127.0.0.1: what arrives, what is retried, counted. */
class QueueManagerTest {
  private static final String FAST =
      "    queue_config:\n"
          + "      batch_send_deadline: 50ms\n"
          + "      min_backoff: 5ms\n"
          + "      max_backoff: 20ms\n";

  private FakeReceiver receiver;
  private final List<QueueManager> queues = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    receiver = new FakeReceiver();
  }

  @AfterEach
  void stop() {
    for (QueueManager q : queues) {
      q.close(Duration.ZERO);
    }
    receiver.close();
  }

  private QueueManager queue(String extra) {
    QueueManager q =
        QueueManager.start(endpoint(receiver.url(), extra), Labels.EMPTY, "infermon/test");
    queues.add(q);
    return q;
  }

  @Test
  void everySampleArrivesInPerSeriesOrderAcrossShards() throws Exception {
    QueueManager q =
        queue(
            "    queue_config:\n"
                + "      min_shards: 4\n"
                + "      max_samples_per_send: 7\n"
                + "      batch_send_deadline: 50ms\n");
    Fanout storage = fanout(q);

    scrape(storage, 25, 20, 1_000_000);

    assertThat(receiver.await(() -> q.stats().sentSamples() == 500, 20)).isTrue();
    Map<String, List<Long>> perSeries = new HashMap<>();
    for (WireDecoder.Series s : receiver.accepted()) {
      perSeries.computeIfAbsent(s.labels().get("s"), k -> new ArrayList<>()).addAll(s.timestamps());
    }
    assertThat(perSeries).hasSize(25);
    for (List<Long> ts : perSeries.values()) {
      assertThat(ts).hasSize(20).isSorted().doesNotHaveDuplicates();
    }
    assertThat(q.shards()).isEqualTo(4);
    assertThat(receiver.received()).allMatch(r -> r.body().samples() <= 7);
    assertThat(q.stats().highestSentTimestampMs()).isEqualTo(1_000_000 + 19_000);
    assertThat(q.stats().pendingSamples()).isZero();
  }

  @Test
  void requestsCarryTheRemoteWriteHeadersAndTheEndpointsOwn() throws Exception {
    QueueManager q =
        queue(
            "    headers:\n"
                + "      X-Scope-OrgID: tenant-1\n"
                + "    basic_auth:\n"
                + "      username: u\n"
                + "      password: p\n"
                + FAST);
    scrape(fanout(q), 1, 1, 1000);

    assertThat(receiver.await(() -> q.stats().sentSamples() == 1, 10)).isTrue();
    FakeReceiver.Received r = receiver.received().get(0);
    assertThat(r.header("Content-Encoding")).isEqualTo("snappy");
    assertThat(r.header("Content-Type")).isEqualTo("application/x-protobuf");
    assertThat(r.header("X-Prometheus-Remote-Write-Version")).isEqualTo("0.1.0");
    assertThat(r.header("User-Agent")).isEqualTo("infermon/test");
    assertThat(r.header("X-Scope-OrgID")).isEqualTo("tenant-1");
    assertThat(r.header("Authorization"))
        .isEqualTo("Basic " + Base64.getEncoder().encodeToString("u:p".getBytes()));
  }

  @Test
  void bearerAuthorization() throws Exception {
    QueueManager q = queue("    authorization:\n      credentials: tok\n" + FAST);
    scrape(fanout(q), 1, 1, 1000);

    assertThat(receiver.await(() -> q.stats().sentSamples() == 1, 10)).isTrue();
    assertThat(receiver.received().get(0).header("Authorization")).isEqualTo("Bearer tok");
  }

  static Stream<Arguments> statuses() {
    // status, retry_on_http_429, retried?
    return Stream.of(
        Arguments.of(500, false, true),
        Arguments.of(503, false, true),
        Arguments.of(429, true, true),
        Arguments.of(429, false, false),
        Arguments.of(400, false, false),
        Arguments.of(404, true, false));
  }

  @ParameterizedTest(name = "HTTP {0}, retry_on_http_429={1}: retried={2}")
  @MethodSource("statuses")
  void recoverableStatusesAreRetriedOthersFailAndAreCounted(
      int status, boolean retry429, boolean retried) throws Exception {
    AtomicInteger calls = new AtomicInteger();
    receiver.respondWith(() -> calls.getAndIncrement() < 2 ? status : 204);
    QueueManager q = queue(FAST + "      retry_on_http_429: " + retry429 + "\n");
    scrape(fanout(q), 3, 1, 1000);

    assertThat(receiver.await(() -> q.stats().sentSamples() + q.stats().failedSamples() == 3, 10))
        .isTrue();
    if (retried) {
      assertThat(q.stats().sentSamples()).isEqualTo(3);
      assertThat(q.stats().retriedSamples()).isEqualTo(6);
      assertThat(q.stats().failedSamples()).isZero();
    } else {
      assertThat(q.stats().failedSamples()).isEqualTo(3);
      assertThat(q.stats().sentSamples()).isZero();
      assertThat(q.stats().retriedSamples()).isZero();
    }
    assertThat(q.stats().pendingSamples()).isZero();
  }

  @Test
  void anUnreachableReceiverIsRetriedUntilItAnswers() throws Exception {
    FakeReceiver later = receiver;
    String url = later.url();
    later.close();
    QueueManager q = QueueManager.start(endpoint(url, FAST), Labels.EMPTY, "infermon/test");
    queues.add(q);
    scrape(fanout(q), 2, 1, 1000);

    assertThat(later.await(() -> q.stats().retriedSamples() >= 4, 10)).isTrue();
    assertThat(q.stats().pendingSamples()).isEqualTo(2);
    assertThat(q.stats().sentSamples()).isZero();
  }

  @Test
  void backoffDoublesFromMinToMaxAndRetryAfterWins() {
    List<Long> waits = new ArrayList<>();
    long backoff = 30;
    for (int i = 0; i < 10; i++) {
      long sleep = Shard.sleepFor(backoff, 0);
      waits.add(sleep);
      backoff = Shard.nextBackoff(sleep, 5_000);
    }
    assertThat(waits).containsExactly(30L, 60L, 120L, 240L, 480L, 960L, 1920L, 3840L, 5000L, 5000L);
    assertThat(Shard.sleepFor(30, 2_000)).isEqualTo(2_000);
  }

  @Test
  void aFullQueueDropsAndCountsWhatItCannotHold() throws Exception {
    receiver.respondWith(() -> 503);
    QueueManager q =
        queue(
            "    queue_config:\n"
                + "      capacity: 10\n"
                + "      max_shards: 2\n"
                + "      max_samples_per_send: 5\n"
                + "      batch_send_deadline: 20ms\n"
                + "      min_backoff: 5ms\n"
                + "      max_backoff: 10ms\n");
    scrape(fanout(q), 10, 5, 1000);

    QueueStats s = q.stats();
    assertThat(s.samplesIn()).isEqualTo(50);
    assertThat(s.pendingSamples()).isEqualTo(20);
    assertThat(s.droppedQueueFull()).isEqualTo(30);
    assertThat(s.sentSamples() + s.failedSamples()).isZero();
  }

  @Test
  void closingWhileTheReceiverIsAwayCountsTheRestAsDroppedAtShutdown() throws Exception {
    receiver.respondWith(() -> 503);
    QueueManager q = queue(FAST);
    scrape(fanout(q), 4, 2, 1000);
    assertThat(receiver.await(() -> !receiver.received().isEmpty(), 10)).isTrue();

    q.close(Duration.ofMillis(100));

    QueueStats s = q.stats();
    assertThat(s.droppedAtShutdown()).isEqualTo(8);
    assertThat(s.pendingSamples()).isZero();
  }

  @Test
  void externalLabelsAreAddedAndWriteRelabelingDropsAndRenames() throws Exception {
    QueueManager q =
        QueueManager.start(
            endpoint(
                receiver.url(),
                "    write_relabel_configs:\n"
                    + "      - source_labels: [__name__]\n"
                    + "        regex: go_.*\n"
                    + "        action: drop\n"
                    + "      - source_labels: [cluster]\n"
                    + "        target_label: origin\n"
                    + FAST),
            Labels.of("cluster", "eu-1", "pod", "never-overrides"),
            "infermon/test");
    queues.add(q);
    Fanout storage = fanout(q);
    Appender a = storage.appender();
    a.append(Labels.of("__name__", "go_goroutines", "pod", "a"), 1000, 1);
    a.append(Labels.of("__name__", "vllm:num_requests_running", "pod", "a"), 1000, 2);
    a.commit();

    assertThat(receiver.await(() -> q.stats().sentSamples() == 1, 10)).isTrue();
    assertThat(q.stats().droppedByRelabeling()).isEqualTo(1);
    assertThat(receiver.accepted().get(0).labels())
        .containsOnly(
            Map.entry("__name__", "vllm:num_requests_running"),
            Map.entry("cluster", "eu-1"),
            Map.entry("origin", "eu-1"),
            Map.entry("pod", "a"));
  }

  @Test
  void stalenessMarkersAreForwarded() throws Exception {
    QueueManager q = queue(FAST);
    Fanout storage = fanout(q);
    Appender a = storage.appender();
    a.append(Labels.of("__name__", "up"), 1000, 1);
    a.commit();
    a = storage.appender();
    a.append(Labels.of("__name__", "up"), 2000, StaleNaN.VALUE);
    a.commit();

    assertThat(receiver.await(() -> q.stats().sentSamples() == 2, 10)).isTrue();
    assertThat(receiver.accepted())
        .flatExtracting(WireDecoder.Series::valueBits)
        .containsExactly(Double.doubleToRawLongBits(1.0), StaleNaN.BITS);
  }

  @Test
  void metadataIsSentOnItsInterval() throws Exception {
    QueueManager q = queue(FAST + "    metadata_config:\n      send_interval: 50ms\n");
    Fanout storage = fanout(q);
    Appender a = storage.appender();
    Labels l = Labels.of("__name__", "vllm:prompt_tokens_total", "pod", "a");
    a.updateMetadata(
        Labels.of("__name__", "vllm:prompt_tokens", "pod", "a"),
        new Metadata(MetricType.COUNTER, "Prompt tokens.", ""));
    a.append(l, 1000, 5);
    a.commit();

    assertThat(receiver.await(() -> q.stats().metadataSent() >= 1, 10)).isTrue();
    assertThat(receiver.received())
        .flatExtracting(r -> r.body().metadata())
        .contains(new WireDecoder.Meta(1, "vllm:prompt_tokens", "Prompt tokens.", ""));
  }

  @Test
  void invalidQueueSettingsAreCallerMistakes() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                QueueManager.start(
                    endpoint(receiver.url(), "    queue_config:\n      capacity: 0\n"),
                    Labels.EMPTY,
                    "t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("capacity");
  }
}
