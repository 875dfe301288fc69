package dev.infermon.scrape;

import dev.infermon.config.http.HttpClients;
import dev.infermon.config.scrape.ScrapeConfig;

/**
 * {@link ScrapeLoopHttpTest} with the JDK client's fetcher, which HTTPS targets get (the test
 * targets are plain HTTP; the request and error handling are what is checked).
 */
class JdkHttpScrapeLoopTest extends ScrapeLoopHttpTest {
  @Override
  Scraper fetcher(Target t, ScrapeConfig cfg) {
    return new HttpScraper(
        HttpClients.create(cfg.httpClient(), null),
        t.url(),
        Bodies.limit(cfg.bodySizeLimit().bytes()),
        cfg.enableCompression(),
        new dev.infermon.config.http.RequestAuth(cfg.httpClient()));
  }

  @Override
  String truncatedError() {
    return "IOException";
  }
}
