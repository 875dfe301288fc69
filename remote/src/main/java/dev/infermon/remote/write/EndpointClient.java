package dev.infermon.remote.write;

import dev.infermon.config.http.HttpClients;
import dev.infermon.config.http.RequestAuth;
import dev.infermon.config.remote.RemoteWriteConfig;
import dev.infermon.remote.prompb.WriteRequestEncoder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Posts encoded write requests to one endpoint with the remote-write 1.0 headers, the endpoint's
 * own {@code headers} (for example {@code X-Scope-OrgID}) and its authorization. Thread-safe (the
 * JDK client is).
 */
final class EndpointClient {
  /** Prometheus reads at most this much of an error body. */
  private static final int MAX_ERROR_BODY = 1024;

  private final HttpClient client;
  private final URI url;
  private final Duration timeout;
  private final Map<String, String> headers;
  private final RequestAuth auth;
  private final String userAgent;

  EndpointClient(RemoteWriteConfig cfg, String userAgent) {
    this.client = HttpClients.create(cfg.httpClient(), null);
    this.url = cfg.url().uri();
    this.timeout = cfg.remoteTimeout();
    this.headers = Map.copyOf(cfg.headers());
    this.auth = new RequestAuth(cfg.httpClient());
    this.userAgent = userAgent;
  }

  /** What the receiver answered. */
  record Response(int status, long retryAfterMs, String message) {
    boolean ok() {
      return status / 100 == 2;
    }
  }

  /**
   * Posts one body.
   *
   * @throws IOException on a network error or timeout (recoverable)
   */
  Response post(byte[] body) throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(url)
            .timeout(timeout)
            .header("Content-Encoding", "snappy")
            .header("Content-Type", WriteRequestEncoder.CONTENT_TYPE)
            .header("User-Agent", userAgent)
            .header("X-Prometheus-Remote-Write-Version", WriteRequestEncoder.VERSION)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (Map.Entry<String, String> h : headers.entrySet()) {
      b.setHeader(h.getKey(), h.getValue());
    }
    for (Map.Entry<String, String> h : auth.get().entrySet()) {
      b.setHeader(h.getKey(), h.getValue());
    }
    HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    String msg = "";
    if (r.statusCode() / 100 != 2) {
      byte[] bytes = r.body();
      msg =
          new String(bytes, 0, Math.min(bytes.length, MAX_ERROR_BODY), StandardCharsets.UTF_8)
              .trim();
    }
    return new Response(r.statusCode(), retryAfterMs(r), msg);
  }

  /** {@code Retry-After} in seconds (the HTTP-date form is ignored), or 0. */
  private static long retryAfterMs(HttpResponse<?> r) {
    String v = r.headers().firstValue("Retry-After").orElse("").trim();
    if (v.isEmpty()) {
      return 0;
    }
    try {
      return Math.max(0, Long.parseLong(v)) * 1000;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  @Override
  public String toString() {
    return "EndpointClient[" + url + "]";
  }
}
