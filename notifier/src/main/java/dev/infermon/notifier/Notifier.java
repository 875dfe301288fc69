package dev.infermon.notifier;

import dev.infermon.config.http.HttpClients;
import dev.infermon.config.http.RequestAuth;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.relabel.Relabel;
import dev.infermon.model.relabel.RelabelConfig;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends alerts to Alertmanagers and webhooks as Prometheus's {@code notifier.Manager} does: {@link
 * #send} adds external labels, applies {@code alert_relabel_configs} and queues (dropping the
 * oldest when the queue is full); one sending thread takes batches of at most {@code maxBatchSize}
 * and posts each to every endpoint of every set in parallel. No retries: the rules re-send firing
 * alerts every resend delay, which covers a failed request. A batch that reached no endpoint of
 * some set is counted as dropped.
 *
 * <p>Each endpoint's HTTP client settings apply as a scrape's do ({@link HttpClients}: TLS,
 * redirects, HTTP/2 over TLS; {@link RequestAuth}: authorization and {@code http_headers},
 * credential files read at each send); endpoints with equal settings share one JDK client.
 *
 * <p>Threading: thread-safe; {@link #send} only queues and returns. Requests run on the HTTP
 * clients' executor, owned here: at most {@link #HTTP_THREADS} daemon threads named {@code
 * notifier-http-*} (without one, the JDK client's own pool keeps idle threads for 60 s after each
 * send). {@link #close} stops the sending thread and that executor; queued alerts are dropped (and
 * counted).
 */
public final class Notifier implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Notifier.class);

  /** The HTTP client's threads; requests beyond wait in its queue, so every endpoint is served. */
  static final int HTTP_THREADS = 4;

  private static final String HTTP_THREAD_NAME = "notifier-http-";

  private final NotifierOptions opts;
  private final List<Endpoint.Set> sets;
  private final NotifierMetrics metrics;
  private final ExecutorService httpExecutor;
  // created on the first send to an endpoint: a JDK client sets up TLS when built
  private final Map<HttpClientConfig, HttpClient> clients = new HashMap<>();
  private final ArrayDeque<Alert> queue = new ArrayDeque<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition more = lock.newCondition();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final Thread sender;

  public Notifier(NotifierOptions opts, List<Endpoint.Set> sets, NotifierMetrics metrics) {
    this.opts = opts;
    this.sets = List.copyOf(sets);
    this.metrics = metrics;
    this.httpExecutor = httpExecutor();
    this.sender = new Thread(this::sendLoop, "notifier");
    sender.setDaemon(true);
    sender.start();
  }

  /**
   * The client for {@code http}.
   *
   * @throws IllegalArgumentException when its TLS material does not load
   */
  private synchronized HttpClient client(HttpClientConfig http) {
    HttpClient c = clients.get(http);
    if (c == null) {
      c = HttpClients.create(http, httpExecutor);
      clients.put(http, c);
    }
    return c;
  }

  private static ExecutorService httpExecutor() {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            HTTP_THREADS,
            HTTP_THREADS,
            5,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, HTTP_THREAD_NAME + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** Queues alerts for every endpoint. */
  public void send(List<Alert> alerts) {
    List<Alert> relabeled = relabel(alerts, opts.externalLabels(), opts.alertRelabelConfigs());
    if (relabeled.isEmpty()) {
      return;
    }
    lock.lock();
    try {
      int over = relabeled.size() - opts.queueCapacity();
      if (over > 0) {
        relabeled = relabeled.subList(over, relabeled.size());
        log.warn("Alert batch larger than queue capacity, dropping {} alerts", over);
        metrics.dropped(over);
      }
      int full = queue.size() + relabeled.size() - opts.queueCapacity();
      if (full > 0) {
        for (int i = 0; i < full; i++) {
          queue.pollFirst();
        }
        log.warn("Alert notification queue full, dropping {} alerts", full);
        metrics.dropped(full);
      }
      queue.addAll(relabeled);
      more.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Alerts waiting to be sent ({@code prometheus_notifications_queue_length}). */
  public int queueLength() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  public int queueCapacity() {
    return opts.queueCapacity();
  }

  static List<Alert> relabel(List<Alert> alerts, Labels external, List<RelabelConfig> configs) {
    List<Alert> out = new ArrayList<>(alerts.size());
    for (Alert a : alerts) {
      Labels l = a.labels();
      if (!external.isEmpty()) {
        Labels.Builder b = l.toBuilder();
        for (int i = 0; i < external.size(); i++) {
          if (!l.has(external.name(i))) {
            b.set(external.name(i), external.value(i));
          }
        }
        l = b.build();
      }
      l = Relabel.process(l, configs);
      if (l != null) {
        out.add(a.withLabels(l));
      }
    }
    return out;
  }

  private List<Alert> nextBatch() throws InterruptedException {
    lock.lock();
    try {
      while (queue.isEmpty() && !stopped.get()) {
        more.await();
      }
      List<Alert> batch = new ArrayList<>();
      while (!queue.isEmpty() && batch.size() < opts.maxBatchSize()) {
        batch.add(queue.pollFirst());
      }
      return batch;
    } finally {
      lock.unlock();
    }
  }

  private void sendLoop() {
    while (!stopped.get()) {
      List<Alert> batch;
      try {
        batch = nextBatch();
      } catch (InterruptedException e) {
        return;
      }
      if (!batch.isEmpty() && !sendAll(batch)) {
        metrics.dropped(batch.size());
      }
    }
  }

  /** Posts to all sets in parallel; true if every set that got alerts took them somewhere. */
  boolean sendAll(List<Alert> alerts) {
    List<CompletableFuture<Boolean>> perSet = new ArrayList<>();
    for (Endpoint.Set set : sets) {
      if (set.endpoints().isEmpty()) {
        continue;
      }
      List<Alert> forSet = relabel(alerts, Labels.EMPTY, set.alertRelabelConfigs());
      if (forSet.isEmpty()) {
        continue;
      }
      byte[] payload = AlertJson.encode(forSet);
      List<CompletableFuture<Boolean>> each = new ArrayList<>();
      for (Endpoint e : set.endpoints()) {
        each.add(post(e, payload, forSet.size()));
      }
      perSet.add(
          CompletableFuture.allOf(each.toArray(new CompletableFuture<?>[0]))
              .thenApply(v -> each.stream().anyMatch(CompletableFuture::join)));
    }
    boolean ok = true;
    for (CompletableFuture<Boolean> f : perSet) {
      ok &= f.join();
    }
    return ok;
  }

  private CompletableFuture<Boolean> post(Endpoint e, byte[] payload, int count) {
    long start = System.nanoTime();
    String name = e.name();
    HttpRequest request;
    HttpClient c;
    try {
      request = request(e, payload);
      c = client(e.http());
    } catch (RuntimeException ex) {
      // a credentials file that cannot be read, TLS material that does not load: this send fails
      return CompletableFuture.completedFuture(failed(name, count, start, ex.getMessage()));
    }
    return c.sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .handle(
            (resp, err) -> {
              if (err == null && resp.statusCode() / 100 == 2) {
                metrics.latency(name, (System.nanoTime() - start) / 1e9);
                metrics.sent(name, count);
                return true;
              }
              String why =
                  err != null ? err.toString() : "bad response status " + resp.statusCode();
              return failed(name, count, start, why);
            });
  }

  private boolean failed(String name, int count, long start, String why) {
    metrics.latency(name, (System.nanoTime() - start) / 1e9);
    log.error("Error sending {} alerts to {}: {}", count, name, why);
    metrics.errors(name, count);
    return false;
  }

  private static HttpRequest request(Endpoint e, byte[] payload) {
    HttpRequest.Builder rb =
        HttpRequest.newBuilder(e.url())
            .timeout(e.timeout())
            .header("Content-Type", "application/json")
            .header("User-Agent", "infermon")
            .POST(HttpRequest.BodyPublishers.ofByteArray(payload));
    if (!"https".equalsIgnoreCase(e.url().getScheme())) {
      // HTTP/2 is negotiated over TLS only: no h2c upgrade attempt on a plain receiver
      rb.version(HttpClient.Version.HTTP_1_1);
    }
    Map<String, String> headers = new RequestAuth(e.http()).get();
    for (Map.Entry<String, String> h : headers.entrySet()) {
      rb.header(h.getKey(), h.getValue());
    }
    String info = e.url().getUserInfo();
    if (info != null && !headers.containsKey("Authorization")) {
      // as Go's client does for a URL with user info (a webhook's), which the JDK's ignores
      rb.header(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(info.getBytes(StandardCharsets.UTF_8)));
    }
    return rb.build();
  }

  @Override
  public void close() {
    stopped.set(true);
    lock.lock();
    try {
      more.signalAll();
      if (!queue.isEmpty()) {
        metrics.dropped(queue.size());
        queue.clear();
      }
    } finally {
      lock.unlock();
    }
    sender.interrupt();
    try {
      sender.join(10_000);
      // The sender waits for its requests, so none is in flight unless the join timed out.
      httpExecutor.shutdownNow();
      httpExecutor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      httpExecutor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
