package dev.infermon.scrape;

import dev.infermon.config.http.HttpClients;
import dev.infermon.config.http.RequestAuth;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.config.scrape.TlsConfig;
import java.net.http.HttpClient;
import java.util.concurrent.Executor;

/**
 * The HTTP fetchers of one scrape pool. Plain-HTTP targets (what inference engines and
 * dcgm-exporter serve) get an {@link Http1Scraper} each, with its own keep-alive connection; HTTPS
 * targets, and plain ones that redirect to {@code https://}, go through the JDK client ({@link
 * HttpScraper}), which carries the pool's TLS settings and negotiates HTTP/2 when {@code
 * enable_http2} is on. Both send the same request and report the same errors. Proxy settings are
 * not applied (they never were: configs load, infermon connects directly).
 *
 * <p>Threading: {@link #create} is called under the pool's lock; the JDK client is thread-safe.
 * Each plain-HTTP fetcher's connection is closed by its loop when it stops ({@link
 * Scraper#close()}); the pool shares no connections.
 */
final class HttpScrapers implements ScrapePool.ScraperFactory {
  private final HttpClientConfig http;
  private final Executor workers;

  private HttpClient jdk; // created on the first HTTPS target; guarded by this

  /**
   * @throws IllegalArgumentException if the config's TLS material does not load
   */
  HttpScrapers(ScrapeConfig cfg, Executor workers) {
    this.http = cfg.httpClient();
    this.workers = workers;
    if (!http.tlsConfig().equals(TlsConfig.DEFAULT)) {
      jdk = HttpClients.create(http, workers); // fail on bad TLS material now, as before
    }
  }

  @Override
  public Scraper create(Target t, ScrapeConfig c) {
    long limit = Bodies.limit(c.bodySizeLimit().bytes());
    RequestAuth auth = new RequestAuth(c.httpClient());
    boolean gzip = c.enableCompression();
    if (t.url().startsWith("http://")) {
      return new Http1Scraper(
          t.url(),
          limit,
          gzip,
          c.httpClient().followRedirects(),
          auth,
          httpsUrl -> new HttpScraper(jdk(), httpsUrl, limit, gzip, auth));
    }
    return new HttpScraper(jdk(), t.url(), limit, gzip, auth);
  }

  private synchronized HttpClient jdk() {
    if (jdk == null) {
      jdk = HttpClients.create(http, workers);
    }
    return jdk;
  }
}
