package dev.infermon.scrape;

import dev.infermon.config.scrape.ScrapeConfig;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;

/** {@link ScrapeLoopHttpTest} with the fetcher plain-HTTP targets get: the blocking client. */
class BlockingHttpScrapeLoopTest extends ScrapeLoopHttpTest {
  private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1);
  private HttpScrapers scrapers;

  @Override
  Scraper fetcher(Target t, ScrapeConfig cfg) {
    if (scrapers == null) {
      scrapers = new HttpScrapers(cfg, scheduler, Runnable::run);
    }
    Scraper s = scrapers.create(t, cfg);
    org.assertj.core.api.Assertions.assertThat(s).isInstanceOf(BlockingHttpScraper.class);
    return s;
  }

  @Override
  String truncatedError() {
    return "Premature end of Content-Length delimited message body";
  }

  @AfterEach
  void closeClient() {
    if (scrapers != null) {
      scrapers.close();
    }
    scheduler.shutdownNow();
  }
}
