package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.scrape.ScrapeConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** {@link ScrapeLoopHttpTest} with the fetcher plain-HTTP targets get: {@link Http1Scraper}. */
class Http1ScrapeLoopTest extends ScrapeLoopHttpTest {
  private final List<Scraper> scrapers = new ArrayList<>();

  @Override
  Scraper fetcher(Target t, ScrapeConfig cfg) {
    Scraper s = new HttpScrapers(cfg, Runnable::run).create(t, cfg);
    assertThat(s).isInstanceOf(Http1Scraper.class);
    scrapers.add(s);
    return s;
  }

  @Override
  String truncatedError() {
    return "reading the body: ";
  }

  @AfterEach
  void closeScrapers() {
    scrapers.forEach(Scraper::close);
  }
}
