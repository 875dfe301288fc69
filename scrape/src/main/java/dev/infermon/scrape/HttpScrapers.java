package dev.infermon.scrape;

import dev.infermon.config.http.HttpClients;
import dev.infermon.config.http.RequestAuth;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.textparse.ParserOptions;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The HTTP fetchers of one scrape pool. Plain-HTTP targets (what inference engines and
 * dcgm-exporter serve) go through a blocking Apache HttpClient with pooled keep-alive connections
 * ({@link BlockingHttpScraper}); HTTPS targets through the JDK client ({@link HttpScraper}), which
 * carries the pool's TLS settings and negotiates HTTP/2 when {@code enable_http2} is on. Both send
 * the same request and report the same errors.
 *
 * <p>Threading: {@link #create} is called under the pool's lock; the clients are thread-safe.
 * {@link #close()} releases the pooled connections once the pool's loops have stopped.
 */
final class HttpScrapers implements ScrapePool.ScraperFactory {
  private final HttpClientConfig http;
  private final ScheduledExecutorService scheduler;
  private final Executor workers;
  private final CloseableHttpClient blocking;
  static final int CONNECTION_BUFFER_BYTES = 4096;

  private HttpClient jdk; // created on the first HTTPS target; guarded by this

  /**
   * @throws IllegalArgumentException if the config's TLS material does not load
   */
  HttpScrapers(ScrapeConfig cfg, ScheduledExecutorService scheduler, Executor workers) {
    this.http = cfg.httpClient();
    this.scheduler = scheduler;
    this.workers = workers;
    if (!http.tlsConfig().equals(dev.infermon.config.scrape.TlsConfig.DEFAULT)) {
      jdk = HttpClients.create(http, workers); // fail on bad TLS material now, as before
    }
    Timeout connect = Timeout.of(cfg.scrapeTimeout());
    PoolingHttpClientConnectionManager connections =
        PoolingHttpClientConnectionManagerBuilder.create()
            // One small pool per route: the strict pool's shared idle list is searched linearly
            // for the route on every lease, which costs more than the request at 100+ targets.
            .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX)
            .setMaxConnPerRoute(2)
            .setMaxConnTotal(Integer.MAX_VALUE)
            .setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build())
            // Only plain-HTTP targets come here; TLS is needed only if one redirects to https.
            // The default strategy would load the trust store (and ~300 classes) at start-up.
            .setTlsSocketStrategy(new LazyTls())
            // Each pooled connection keeps three buffers of this size for its life (32 KiB by
            // default: 13 MiB at 135 targets). Bodies bypass it: reads larger than a small chunk
            // go straight from the socket into the caller's array.
            .setConnectionFactory(
                ManagedHttpClientConnectionFactory.builder()
                    .http1Config(
                        Http1Config.custom().setBufferSize(CONNECTION_BUFFER_BYTES).build())
                    .build())
            .setDefaultConnectionConfig(
                ConnectionConfig.custom()
                    .setConnectTimeout(connect)
                    .setSocketTimeout(connect)
                    .setTimeToLive(TimeValue.ofMinutes(10))
                    // No stale check before reuse (it blocks on a 1 ms read and throws on every
                    // scrape); a connection the target closed while idle fails the request
                    // before any response, which is retried once below, as Go's client does.
                    .setValidateAfterInactivity(TimeValue.NEG_ONE_MILLISECOND)
                    .build())
            .build();
    HttpClientBuilder b =
        HttpClientBuilder.create()
            .setConnectionManager(connections)
            .disableContentCompression() // gzip is asked for and inflated under the body limit
            .disableCookieManagement()
            .disableAuthCaching()
            .setRetryStrategy(new RetryOnStaleConnection())
            .evictIdleConnections(TimeValue.ofMinutes(2));
    if (!http.followRedirects()) {
      b.disableRedirectHandling();
    }
    this.blocking = b.build();
  }

  @Override
  public Scraper create(Target t, ScrapeConfig c) {
    long limit =
        c.bodySizeLimit().bytes() > 0
            ? c.bodySizeLimit().bytes()
            : ParserOptions.DEFAULT_MAX_BODY_BYTES;
    RequestAuth auth = new RequestAuth(c.httpClient());
    if (t.url().startsWith("http://")) {
      return new BlockingHttpScraper(
          blocking, scheduler, t.url(), limit, c.enableCompression(), auth);
    }
    return new HttpScraper(jdk(), t.url(), limit, c.enableCompression(), auth);
  }

  private synchronized HttpClient jdk() {
    if (jdk == null) {
      jdk = HttpClients.create(http, workers);
    }
    return jdk;
  }

  /** The client's default TLS, created on first use. Thread-safe. */
  private static final class LazyTls implements TlsSocketStrategy {
    private volatile TlsSocketStrategy tls;

    @Override
    public SSLSocket upgrade(
        Socket socket, String target, int port, Object attachment, HttpContext context)
        throws IOException {
      TlsSocketStrategy t = tls;
      if (t == null) {
        synchronized (this) {
          t = tls;
          if (t == null) {
            t = DefaultClientTlsStrategy.createDefault();
            tls = t;
          }
        }
      }
      return t.upgrade(socket, target, port, attachment, context);
    }
  }

  /**
   * Retries a request once when it failed before any response arrived on a reused connection (the
   * target closed it while idle: uvicorn, which serves vLLM, closes idle keep-alive connections
   * after 5 s); never on a status code. Timeouts, refused connections and bodies cut short are not
   * retried: a failed scrape is a failed scrape, as in Prometheus.
   */
  static final class RetryOnStaleConnection extends DefaultHttpRequestRetryStrategy {
    RetryOnStaleConnection() {
      super(1, TimeValue.ZERO_MILLISECONDS);
    }

    @Override
    public boolean retryRequest(HttpResponse response, int execCount, HttpContext context) {
      return false;
    }
  }

  @Override
  public void close() {
    blocking.close(CloseMode.GRACEFUL);
  }
}
