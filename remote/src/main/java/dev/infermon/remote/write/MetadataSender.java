package dev.infermon.remote.write;

import dev.infermon.config.remote.MetadataConfig;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.remote.prompb.WriteRequestEncoder;
import dev.infermon.remote.prompb.WriteRequestEncoder.FamilyMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the latest metadata of every family seen so far every {@code
 * metadata_config.send_interval}, in requests of at most {@code max_samples_per_send} entries, as
 * Prometheus does from its scrape caches. Metadata is advisory: a failed request is retried once at
 * the next interval, not in a loop, and counted.
 *
 * <p>Thread-safe: {@link #update} is called by committing threads; sending runs on its own thread.
 */
final class MetadataSender implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(MetadataSender.class);

  private final String name;
  private final MetadataConfig cfg;
  private final EndpointClient client;
  private final QueueStats stats;
  private final Map<String, Metadata> latest = new ConcurrentHashMap<>();
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread thread;

  MetadataSender(String name, MetadataConfig cfg, EndpointClient client, QueueStats stats) {
    if (cfg.maxSamplesPerSend() <= 0) {
      throw new IllegalArgumentException(
          "metadata_config.max_samples_per_send must be positive: " + cfg.maxSamplesPerSend());
    }
    if (cfg.sendInterval().isNegative() || cfg.sendInterval().isZero()) {
      throw new IllegalArgumentException(
          "metadata_config.send_interval must be positive: " + cfg.sendInterval());
    }
    this.name = name;
    this.cfg = cfg;
    this.client = client;
    this.stats = stats;
    this.thread = new Thread(this, "remote-write-metadata-" + name);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Records a family's metadata; the family is the {@code __name__} of {@code labels}. */
  void update(Labels labels, Metadata m) {
    String family = labels.get(Labels.METRIC_NAME);
    if (family != null && !family.isEmpty()) {
      latest.put(family, m);
    }
  }

  @Override
  public void run() {
    WriteRequestEncoder encoder = new WriteRequestEncoder();
    try {
      while (!stop.await(cfg.sendInterval().toMillis(), TimeUnit.MILLISECONDS)) {
        sendAll(encoder);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void sendAll(WriteRequestEncoder encoder) throws InterruptedException {
    List<FamilyMetadata> all = new ArrayList<>();
    latest.forEach((f, m) -> all.add(new FamilyMetadata(f, m)));
    for (int from = 0; from < all.size(); from += cfg.maxSamplesPerSend()) {
      List<FamilyMetadata> chunk =
          all.subList(from, Math.min(all.size(), from + cfg.maxSamplesPerSend()));
      byte[] body = encoder.encodeMetadata(chunk);
      stats.requests.increment();
      try {
        EndpointClient.Response r = client.post(body);
        if (r.ok()) {
          stats.metadataSent.add(chunk.size());
          continue;
        }
        log.debug("metadata to {} refused: HTTP {} {}", name, r.status(), r.message());
      } catch (IOException e) {
        log.debug("metadata to {} failed: {}", name, e.toString());
      }
      stats.requestFailures.increment();
      stats.metadataFailed.add(chunk.size());
    }
  }

  void close() {
    stop.countDown();
    thread.interrupt();
  }
}
