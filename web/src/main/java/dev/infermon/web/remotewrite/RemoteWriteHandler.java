package dev.infermon.web.remotewrite;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import dev.infermon.storage.DuplicateSampleException;
import dev.infermon.storage.OutOfBoundsException;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.StorageException;
import dev.infermon.storage.StorageUnavailableException;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Route;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/v1/write}, the remote-write 1.0 receiver, as Prometheus 2.42's {@code
 * writeHandler}: the whole request is one transaction; 204 when it committed; 415 for a request
 * without the headers the specification requires, or one marked as remote write 2.0, which is not
 * implemented ({@link WriteRequestHeaders}); 400 with the reason for a body that does not decode,
 * invalid labels, or a sample the storage rejects (out of order, duplicate, out of bounds, too far
 * in the future: the message names the series, the time and the limit) — nothing of such a request
 * is stored, and senders do not retry 4xx; 503 with the cause when the storage cannot write now (a
 * full disk), which senders retry; 500 for any other failure of the storage; 413 for a body over
 * the limit.
 *
 * <p>Thread-safe: each request has its own appender.
 */
public final class RemoteWriteHandler implements Route {
  private static final Logger log = LoggerFactory.getLogger(RemoteWriteHandler.class);

  /** At most one log line per this interval while the storage cannot write. */
  static final long UNAVAILABLE_LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Supplier<Appendable> storage;
  private volatile long maxBodyBytes; // replaced on a configuration reload
  private final Counter samples;
  private final Counter rejected;
  private final AtomicLong unavailableLoggedAt =
      new AtomicLong(System.nanoTime() - UNAVAILABLE_LOG_INTERVAL_NANOS);
  private final AtomicLong unavailableSinceLog = new AtomicLong();

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
            .help(
                "Remote-write requests refused, by reason: too_large, unsupported_media_type,"
                    + " bad_request, sample_rejected, storage_unavailable, storage_error.")
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
    String unsupported =
        WriteRequestHeaders.problem(ex.header("Content-Type"), ex.header("Content-Encoding"));
    if (unsupported != null) {
      rejected.labelValues("unsupported_media_type").inc();
      log.debug("remote write request refused: {}", unsupported);
      ex.respondText(415, unsupported + "\n");
      return;
    }
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
    Appender app;
    try {
      app = target.appender();
      append(app, req);
    } catch (SampleRejected e) {
      rejected.labelValues("sample_rejected").inc();
      log.debug("remote write request refused: {}", e.getMessage());
      ex.respondText(400, e.getMessage() + "\n");
      return;
    } catch (StorageException | IllegalArgumentException e) {
      rejected.labelValues("storage_error").inc();
      log.error("remote write append failed", e);
      ex.respondText(500, e.getMessage() + "\n");
      return;
    }
    try {
      app.commit();
    } catch (StorageUnavailableException e) {
      // Not rolled back: a failed commit has rolled back already.
      rejected.labelValues("storage_unavailable").inc();
      logUnavailable(e);
      ex.respondText(503, e.getMessage() + "\n");
      return;
    } catch (StorageException e) {
      rejected.labelValues("storage_error").inc();
      log.error("remote write commit failed", e);
      ex.respondText(500, e.getMessage() + "\n");
      return;
    }
    samples.inc(req.sampleCount());
    ex.respond(204, "text/plain; charset=utf-8", new byte[0]);
  }

  /** A sample the storage refused, as the 400's text: the error, the series and the time. */
  private static final class SampleRejected extends Exception {
    private static final long serialVersionUID = 1L;

    SampleRejected(String message) {
      super(message, null, false, false);
    }
  }

  /** Appends the request; on a rejected sample rolls back and throws {@link SampleRejected}. */
  private static void append(Appender app, WriteRequest req) throws SampleRejected {
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
    } catch (OutOfOrderSampleException | DuplicateSampleException | OutOfBoundsException e) {
      app.rollback();
      String series = current.labels().toString();
      String msg = e.getMessage();
      if (!msg.contains(series)) {
        msg += " for series " + series + " at timestamp " + current.timestamps()[i];
      }
      throw new SampleRejected(msg);
    } catch (RuntimeException e) {
      app.rollback();
      throw e;
    }
  }

  /**
   * One line per {@link #UNAVAILABLE_LOG_INTERVAL_NANOS} while the storage cannot write, naming the
   * cause and how many requests were refused since the last line; no stack trace: the cause is the
   * disk, not the code.
   */
  private void logUnavailable(StorageUnavailableException e) {
    long n = unavailableSinceLog.incrementAndGet();
    long now = System.nanoTime();
    long last = unavailableLoggedAt.get();
    if (now - last >= UNAVAILABLE_LOG_INTERVAL_NANOS
        && unavailableLoggedAt.compareAndSet(last, now)) {
      unavailableSinceLog.addAndGet(-n);
      log.error(
          "remote write refused with 503, the storage cannot write: {} ({} requests refused"
              + " since the last such line)",
          e.getMessage(),
          n);
    }
  }
}
