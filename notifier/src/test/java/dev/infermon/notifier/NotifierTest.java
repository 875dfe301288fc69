package dev.infermon.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.infermon.model.labels.Labels;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Queueing, batching, JSON and webhook delivery against a local HTTP server on 127.0.0.1. */
class NotifierTest {
  private HttpServer server;
  private final List<JsonNode> bodies = new CopyOnWriteArrayList<>();
  private final List<String> paths = new CopyOnWriteArrayList<>();
  private volatile CountDownLatch gate = new CountDownLatch(0);
  private volatile int status = 200;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        ex -> {
          try {
            gate.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          paths.add(ex.getRequestURI().getPath());
          bodies.add(new ObjectMapper().readTree(ex.getRequestBody().readAllBytes()));
          ex.sendResponseHeaders(status, -1);
          ex.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    gate.countDown();
    server.stop(0);
  }

  private String base() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  static Alert alert(int i) {
    return new Alert(
        Labels.of("alertname", "A", "i", Integer.toString(i)),
        Labels.of("summary", "s" + i),
        1_700_000_000_000L,
        1_700_000_240_000L,
        "http://x/graph");
  }

  static List<Alert> alerts(int from, int n) {
    List<Alert> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      out.add(alert(i));
    }
    return out;
  }

  private static void await(String what, java.util.function.BooleanSupplier ok) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!ok.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void postsPrometheusShapedJsonToTheV2Path() throws Exception {
    Endpoint.Set set =
        new Endpoint.Set(
            "s",
            List.of(Endpoint.alertmanager("http", base(), "/am/", Duration.ofSeconds(5))),
            List.of());
    try (Notifier n = new Notifier(NotifierOptions.DEFAULTS, List.of(set), NotifierMetrics.NONE)) {
      n.send(List.of(alert(1)));
      await("one request", () -> bodies.size() == 1);
    }
    assertThat(paths).containsExactly("/am/api/v2/alerts");
    JsonNode a = bodies.get(0).get(0);
    assertThat(a.get("labels").get("alertname").asText()).isEqualTo("A");
    assertThat(a.get("annotations").get("summary").asText()).isEqualTo("s1");
    assertThat(a.get("startsAt").asText()).isEqualTo("2023-11-14T22:13:20.000Z");
    assertThat(a.get("endsAt").asText()).isEqualTo("2023-11-14T22:17:20.000Z");
    assertThat(a.get("generatorURL").asText()).isEqualTo("http://x/graph");
  }

  @Test
  void closeLeavesNoThreadBehind() throws Exception {
    Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
    Endpoint.Set set =
        new Endpoint.Set(
            "s",
            List.of(
                Endpoint.webhook(URI.create("http://" + base() + "/hook"), Duration.ofSeconds(5)),
                Endpoint.alertmanager("http", base(), "/", Duration.ofSeconds(5))),
            List.of());
    Notifier n = new Notifier(NotifierOptions.DEFAULTS, List.of(set), NotifierMetrics.NONE);
    n.send(alerts(0, 3));
    await("both requests", () -> bodies.size() == 2);
    assertThat(newThreads(before)).as("threads while sending").contains("notifier");

    n.close();

    // close() waits for its threads; the bounded loop only absorbs the moment a terminated thread
    // may take to leave the thread list. The JDK's default client pool would linger for 60 s.
    await("the notifier's threads to end", () -> newThreads(before).isEmpty());
  }

  /**
   * Threads started since {@code before} and still alive, except the JDK client's selector (it ends
   * when the client is collected; Java 17's client has no close) and the common pool.
   */
  private static Set<String> newThreads(Set<Thread> before) {
    Set<String> out = new HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      String name = t.getName();
      if (!before.contains(t)
          && t.isAlive()
          && !name.endsWith("-SelectorManager")
          && !name.startsWith("ForkJoinPool.commonPool")) {
        out.add(name);
      }
    }
    return out;
  }

  @Test
  void batchesHoldAtMost64Alerts() throws Exception {
    gate = new CountDownLatch(1);
    Endpoint.Set set =
        new Endpoint.Set(
            "s",
            List.of(
                Endpoint.webhook(URI.create("http://" + base() + "/hook"), Duration.ofSeconds(5))),
            List.of());
    try (Notifier n = new Notifier(NotifierOptions.DEFAULTS, List.of(set), NotifierMetrics.NONE)) {
      n.send(alerts(0, 1));
      Thread.sleep(200); // the first batch is in flight and blocked
      n.send(alerts(1, 150));
      gate.countDown();
      await("all alerts", () -> bodies.stream().mapToInt(JsonNode::size).sum() == 151);
    }
    assertThat(bodies).extracting(JsonNode::size).containsExactly(1, 64, 64, 22);
    assertThat(paths).containsOnly("/hook");
  }

  @Test
  void aFullQueueDropsTheOldestAndCountsThem() throws Exception {
    gate = new CountDownLatch(1);
    AtomicInteger dropped = new AtomicInteger();
    NotifierMetrics m =
        new NotifierMetrics() {
          @Override
          public void dropped(int alerts) {
            dropped.addAndGet(alerts);
          }
        };
    Endpoint.Set set =
        new Endpoint.Set(
            "s",
            List.of(Endpoint.webhook(URI.create("http://" + base() + "/"), Duration.ofSeconds(5))),
            List.of());
    try (Notifier n =
        new Notifier(NotifierOptions.DEFAULTS.withQueueCapacity(10), List.of(set), m)) {
      n.send(alerts(0, 1));
      Thread.sleep(200);
      n.send(alerts(1, 8));
      n.send(alerts(9, 5)); // 13 queued > 10: the 3 oldest go
      assertThat(n.queueLength()).isEqualTo(10);
      gate.countDown();
      await("delivery", () -> bodies.size() == 2);
    }
    assertThat(dropped.get()).isEqualTo(3);
    assertThat(bodies.get(1).get(0).get("labels").get("i").asText()).isEqualTo("4");
  }

  @Test
  void failedDeliveriesCountErrorsAndDrops() throws Exception {
    status = 500;
    AtomicInteger errors = new AtomicInteger();
    CountDownLatch dropped = new CountDownLatch(1);
    NotifierMetrics m =
        new NotifierMetrics() {
          @Override
          public void errors(String endpoint, int alerts) {
            errors.addAndGet(alerts);
          }

          @Override
          public void dropped(int alerts) {
            dropped.countDown();
          }
        };
    Endpoint.Set set =
        new Endpoint.Set(
            "s",
            List.of(Endpoint.webhook(URI.create("http://" + base() + "/"), Duration.ofSeconds(5))),
            List.of());
    try (Notifier n = new Notifier(NotifierOptions.DEFAULTS, List.of(set), m)) {
      n.send(alerts(0, 2));
      assertThat(dropped.await(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(errors.get()).isEqualTo(2);
  }

  @Test
  void externalLabelsDoNotOverrideAlertLabels() {
    List<Alert> out =
        Notifier.relabel(
            List.of(
                new Alert(Labels.of("alertname", "A", "cluster", "mine"), Labels.EMPTY, 0, 0, "")),
            Labels.of("cluster", "eu-1", "region", "west"),
            List.of());
    assertThat(out.get(0).labels())
        .isEqualTo(Labels.of("alertname", "A", "cluster", "mine", "region", "west"));
    assertThat(new String(AlertJson.encode(out), StandardCharsets.UTF_8))
        .isEqualTo(
            "[{\"annotations\":{},\"labels\":{\"alertname\":\"A\",\"cluster\":\"mine\",\"region\":\"west\"}}]");
  }
}
