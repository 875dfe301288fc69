package dev.infermon.benchmarks.scrape;

import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.discovery.staticsd.StaticDiscoverer;
import dev.infermon.model.labels.Labels;
import dev.infermon.remote.prompb.WriteRequestEncoder;
import dev.infermon.scrape.Backfill;
import dev.infermon.simulator.Fleet;
import dev.infermon.simulator.FleetConfig;
import dev.infermon.simulator.PodInfo;
import dev.infermon.simulator.http.FleetServer;
import dev.infermon.simulator.http.InventoryFormats;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The history of the steady-state benchmark: the simulated fleet that {@code
 * bench/scrape-vs-peers.sh} scrapes ({@code simulate --vllm-pods N --no-pd}), stepped through the
 * past at the scrape interval and sent by remote write 1.0 to every server given, so that each
 * server ingests the same samples through its own receiver before live scraping continues them.
 * Every page goes through the scrape pipeline's own ingest ({@link Backfill}) with the targets that
 * the benchmark's {@code prometheus.yml} makes, so the history has the live scrapes' labels and
 * report series ({@code up}, {@code scrape_duration_seconds}, ...); the samples are sent in time
 * order (all targets at one step, then the next), one {@code TimeSeries} per sample as Prometheus
 * sends them, so no receiver needs out-of-order ingestion. A step's requests go to all servers at
 * once and the next step waits for every server's answer, so none runs ahead.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.infermon.benchmarks.scrape.RemoteWriteBackfill <prometheus.yml> <vllm-pods> <control-port>
 * <interval-seconds> <history-minutes> <write-url>...}: the history starts at the 2 h boundary at
 * or before {@code history-minutes} ago (so it is 0-2 h longer). The fleet is built as {@code
 * simulate} builds it with its defaults; the yml must be the one that {@code simulate
 * --print-prometheus-config} printed for the same pods and port, which this checks.
 */
public final class RemoteWriteBackfill {
  /**
   * Samples per request: infermon's own sender's default {@code max_samples_per_send}
   * (QueueConfig.DEFAULT). Ten times larger requests make infermon's receiver promote each decoded
   * request out of its small young generation and run a full collection every few requests.
   */
  private static final int BATCH = 2_000;

  /** Prometheus's and infermon's block range, 2 h; blocks are aligned to its multiples. */
  private static final long BLOCK_MS = Duration.ofHours(2).toMillis();

  private final List<URI> receivers;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final WriteRequestEncoder encoder = new WriteRequestEncoder();
  private Labels[] labels = new Labels[BATCH];
  private long[] times = new long[BATCH];
  private double[] values = new double[BATCH];
  private int pending;
  private long samples;
  private long requests;
  private long bytes;

  private RemoteWriteBackfill(List<URI> receivers) {
    this.receivers = receivers;
  }

  public static void main(String[] args) throws IOException, ConfigException, InterruptedException {
    if (args.length < 6) {
      throw new IllegalArgumentException(
          "usage: <prometheus.yml> <vllm-pods> <control-port> <interval-seconds>"
              + " <history-minutes> <write-url>...");
    }
    Path yml = Path.of(args[0]);
    int pods = Integer.parseInt(args[1]);
    int port = Integer.parseInt(args[2]);
    Duration step = Duration.ofSeconds(Integer.parseInt(args[3]));
    Duration history = Duration.ofMinutes(Integer.parseInt(args[4]));
    List<URI> urls = new ArrayList<>();
    for (int i = 5; i < args.length; i++) {
      urls.add(URI.create(args[i]));
    }
    long now = System.currentTimeMillis();
    // From a block boundary, so that the first block a head compaction cuts holds a full range.
    long start = Math.floorDiv(now - history.toMillis(), BLOCK_MS) * BLOCK_MS;
    // As simulate builds it (its defaults), warmed up ten minutes as its --warmup default.
    Fleet fleet =
        Fleet.create(
            FleetConfig.builder().vllmPods(pods).prefillDecode(false).build(),
            start - Duration.ofMinutes(10).toMillis());
    fleet.advanceTo(start);
    String expected =
        InventoryFormats.prometheusYaml(
            fleet.inventory(),
            p -> "127.0.0.1:" + (port + 1 + fleet.inventory().indexOf(p)),
            p -> "/metrics",
            (int) step.toSeconds());
    String given = Files.readString(yml);
    if (!given.equals(expected)) {
      throw new IllegalArgumentException(
          yml
              + " is not the configuration of simulate --vllm-pods "
              + pods
              + " --no-pd --listen"
              + " 127.0.0.1:"
              + port
              + " --scrape-interval "
              + step.toSeconds());
    }
    RemoteWriteBackfill sender = new RemoteWriteBackfill(urls);
    Map<String, Backfill> byUrl = sender.targets(ConfigLoader.create().load(yml).scrapeConfigs());
    List<PodInfo> inventory = fleet.inventory();
    List<Backfill> byPod = new ArrayList<>();
    for (int i = 0; i < inventory.size(); i++) {
      byPod.add(byUrl.get("http://127.0.0.1:" + (port + 1 + i) + "/metrics"));
    }
    long t0 = System.nanoTime();
    int[] steps = {0};
    long totalSteps = (now - fleet.nowMillis()) / step.toMillis();
    // Catch up with the clock until less than one step is missing: the replay takes minutes.
    while (fleet.nowMillis() + step.toMillis() <= System.currentTimeMillis()) {
      fleet.replay(
          System.currentTimeMillis(),
          step,
          snap -> {
            for (int i = 0; i < inventory.size(); i++) {
              Backfill b = byPod.get(i);
              String page = snap.pages().get(inventory.get(i).name());
              if (page == null) {
                b.fail(snap.timeMillis(), "server returned HTTP status 503 Service Unavailable");
              } else {
                b.append(snap.timeMillis(), page, FleetServer.CONTENT_TYPE);
              }
            }
            sender.flush();
            if (++steps[0] % 60 == 0) {
              System.out.printf(
                  "  %d of ~%d steps, %,d samples, %.0f s%n",
                  steps[0], totalSteps, sender.samples, (System.nanoTime() - t0) / 1e9);
            }
          });
    }
    System.out.printf(
        "backfilled %d steps of %d s (from %s), %,d samples per server in %,d requests"
            + " (%.1f MB snappy each) to %d servers, %.0f s%n",
        steps[0],
        step.toSeconds(),
        java.time.Instant.ofEpochMilli(start),
        sender.samples,
        sender.requests,
        sender.bytes / 1e6,
        urls.size(),
        (System.nanoTime() - t0) / 1e9);
  }

  /** The backfill target of every URL the scrape configs scrape, appending into this sender. */
  private Map<String, Backfill> targets(List<ScrapeConfig> configs) {
    Appendable sink = Collector::new;
    Map<String, Backfill> byUrl = new HashMap<>();
    for (ScrapeConfig sc : configs) {
      for (TargetGroup g : new StaticDiscoverer(sc.staticConfigs()).groups()) {
        for (Backfill b : Backfill.targets(sc, g, sink)) {
          byUrl.put(b.url(), b);
        }
      }
    }
    return byUrl;
  }

  /** One scrape's samples, handed to the sender on commit, as a scrape commits to storage. */
  private final class Collector implements Appender {
    private final List<Labels> l = new ArrayList<>();
    private final List<long[]> tv = new ArrayList<>();

    @Override
    public long append(long ref, Labels lbls, long timestampMs, double value) {
      l.add(lbls);
      tv.add(new long[] {timestampMs, Double.doubleToRawLongBits(value)});
      return 0;
    }

    @Override
    public void commit() {
      for (int i = 0; i < l.size(); i++) {
        add(l.get(i), tv.get(i)[0], Double.longBitsToDouble(tv.get(i)[1]));
      }
      rollback();
    }

    @Override
    public void rollback() {
      l.clear();
      tv.clear();
    }
  }

  private void add(Labels l, long t, double v) {
    if (pending == BATCH) {
      send();
    }
    labels[pending] = l;
    times[pending] = t;
    values[pending] = v;
    pending++;
    samples++;
  }

  /** Sends what is pending; called at the end of every step, so a step is never split in time. */
  private void flush() {
    if (pending > 0) {
      send();
    }
  }

  private void send() {
    byte[] body = encoder.encodeSamples(labels, times, values, pending);
    pending = 0;
    requests++;
    bytes += body.length;
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    for (URI u : receivers) {
      HttpRequest req =
          HttpRequest.newBuilder(u)
              .header("Content-Type", WriteRequestEncoder.CONTENT_TYPE)
              .header("Content-Encoding", "snappy")
              .header("X-Prometheus-Remote-Write-Version", WriteRequestEncoder.VERSION)
              .POST(HttpRequest.BodyPublishers.ofByteArray(body))
              .build();
      answers.add(http.sendAsync(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
    }
    for (int i = 0; i < answers.size(); i++) {
      HttpResponse<String> r = answers.get(i).join();
      if (r.statusCode() / 100 != 2) {
        throw new IllegalStateException(
            receivers.get(i) + " answered " + r.statusCode() + ": " + r.body());
      }
    }
  }
}
