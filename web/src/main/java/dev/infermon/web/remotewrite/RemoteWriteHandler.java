package dev.infermon.web.remotewrite;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import dev.infermon.storage.DuplicateSampleException;
import dev.infermon.storage.OutOfBoundsException;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.StorageException;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Route;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/v1/write}, the remote-write 1.0 receiver, as Prometheus 2.42's {@code
 * writeHandler}: the whole request is one transaction; 204 when it committed; 400 with the reason
 * for a body that does not decode, invalid labels, or a sample the storage rejects (out of order,
 * duplicate, out of bounds) — nothing of such a request is stored, and senders do not retry 4xx;
 * 500 when the storage itself fails (senders retry); 413 for a body over the limit.
 *
 * <p>Thread-safe: each request has its own appender.
 */
public final class RemoteWriteHandler implements Route {
  private static final Logger log = LoggerFactory.getLogger(RemoteWriteHandler.class);

  private final Supplier<Appendable> storage;
  private volatile long maxBodyBytes; // replaced on a configuration reload
  private final Counter samples;
  private final Counter rejected;

  /**
   * @param storage where samples go; null while the storage is not ready (then 503)
   * @param maxBodyBytes largest body accepted, compressed and decompressed
   */
  public RemoteWriteHandler(
      Supplier<Appendable> storage, long maxBodyBytes, PrometheusRegistry registry) {
    this.storage = storage;
    this.maxBodyBytes = maxBodyBytes;
    this.samples =
        Counter.builder()
            .withoutExemplars()
            .name("infermon_remote_write_received_samples_total")
            .help("Samples stored from remote-write requests.")
            .register(registry);
    this.rejected =
        Counter.builder()
            .withoutExemplars()
            .name("infermon_remote_write_rejected_requests_total")
            .help("Remote-write requests refused, by reason.")
            .labelNames("reason")
            .register(registry);
  }

  /** The largest body accepted from the next request on. */
  public void maxBodyBytes(long maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void handle(Exchange ex) throws IOException, BodyTooLargeException {
    long maxBodyBytes = this.maxBodyBytes;
    Appendable target = storage.get();
    if (target == null) {
      ex.respondText(503, "Service Unavailable");
      return;
    }
    byte[] body;
    try {
      body = ex.body(maxBodyBytes);
    } catch (BodyTooLargeException e) {
      rejected.labelValues("too_large").inc();
      throw e;
    }
    WriteRequest req;
    try {
      req = WriteRequestDecoder.decode(body, maxBodyBytes);
    } catch (InvalidWriteRequestException e) {
      rejected.labelValues("bad_request").inc();
      log.debug("remote write request refused: {}", e.getMessage());
      ex.respondText(400, e.getMessage() + "\n");
      return;
    }
    Appender app = target.appender();
    WriteRequest.Series current = null;
    int i = 0;
    try {
      for (WriteRequest.Series s : req.series()) {
        current = s;
        long ref = 0;
        for (i = 0; i < s.timestamps().length; i++) {
          ref = app.append(ref, s.labels(), s.timestamps()[i], s.values()[i]);
        }
      }
      for (WriteRequest.FamilyMetadata m : req.metadata()) {
        if (!m.metricFamilyName().isEmpty()) {
          app.updateMetadata(Labels.of(Labels.METRIC_NAME, m.metricFamilyName()), m.metadata());
        }
      }
      app.commit();
    } catch (OutOfOrderSampleException | DuplicateSampleException | OutOfBoundsException e) {
      app.rollback();
      rejected.labelValues("sample_rejected").inc();
      String msg =
          e.getMessage()
              + " for series "
              + current.labels()
              + " at timestamp "
              + current.timestamps()[i];
      log.debug("remote write request refused: {}", msg);
      ex.respondText(400, msg + "\n");
      return;
    } catch (StorageException | IllegalArgumentException e) {
      app.rollback();
      rejected.labelValues("storage_error").inc();
      log.error("remote write append failed", e);
      ex.respondText(500, e.getMessage() + "\n");
      return;
    }
    samples.inc(req.sampleCount());
    ex.respond(204, "text/plain; charset=utf-8", new byte[0]);
  }
}
