package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.model.labels.Labels;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One scrape loop against real HTTP targets on 127.0.0.1, driven scrape by scrape: good pages, then
 * every kind of bad one. A bad scrape commits nothing of its page, marks the previous scrape's
 * series stale, reports {@code up} 0 and records the error.
 */
abstract class ScrapeLoopHttpTest {
  private static final String VLLM = TestTargets.resource("vllm-0.11.x-idle.txt");
  private static final String SMALL = "a_total 1\nb{x=\"1\"} 2\nb{x=\"2\"} 3\n";

  private final TestTargets targets = new TestTargets();
  private final RecordingStorage storage = new RecordingStorage();

  /** The fetcher under test for {@code t}. */
  abstract Scraper fetcher(Target t, ScrapeConfig cfg);

  /** What a body cut short by the server is reported as. */
  abstract String truncatedError();

  @AfterEach
  void close() {
    targets.close();
  }

  private static final ScrapeConfig CFG =
      Configs.one(
          """
          - job_name: test
            scrape_interval: 5s
            scrape_timeout: 2s
            body_size_limit: 64KiB
          """);

  ScrapeLoop loop(String name, ScrapeConfig cfg) {
    Labels discovered =
        Labels.of(
            DiscoveryLabels.ADDRESS, targets.address(), DiscoveryLabels.METRICS_PATH, "/t/" + name);
    Target t = TargetBuilder.build(cfg.jobName(), discovered, cfg).target();
    Scraper s = fetcher(t, cfg);
    return new ScrapeLoop(t, s, storage, PoolSettings.of(cfg), ScrapeMetrics.NOOP);
  }

  private String instance() {
    return targets.address();
  }

  private static void pause() {
    try {
      Thread.sleep(3); // distinct millisecond timestamps between scrapes
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void realVllmPageIsStoredWithTargetLabelsAndReport() {
    targets.set("vllm", TestTargets.page(VLLM));
    ScrapeLoop l = loop("vllm", CFG);
    l.scrapeOnce();

    assertThat(l.target().lastError()).isEmpty();
    assertThat(l.target().health()).isEqualTo(TargetHealth.UP);
    assertThat(storage.values("up", instance())).containsExactly(1.0);
    List<RecordingStorage.Sample> page = storage.samples(l2 -> l2.metricName().startsWith("vllm:"));
    assertThat(page).isNotEmpty();
    assertThat(page)
        .allSatisfy(
            s -> {
              assertThat(s.labels().get("job")).isEqualTo("test");
              assertThat(s.labels().get("instance")).isEqualTo(instance());
            });
    double scraped = storage.values("scrape_samples_scraped", instance()).get(0);
    assertThat(scraped).isEqualTo(countSamples(VLLM));
    assertThat(storage.values("scrape_samples_post_metric_relabeling", instance()))
        .containsExactly(scraped);
    assertThat(storage.values("scrape_series_added", instance())).containsExactly(scraped);
    assertThat(storage.values("scrape_duration_seconds", instance()).get(0)).isBetween(0.0, 2.0);
  }

  @Test
  void requestCarriesPrometheusHeaders() {
    targets.set("h", TestTargets.page(SMALL));
    loop("h", CFG).scrapeOnce();
    assertThat(targets.lastHeaders("h"))
        .containsEntry("accept", HttpScraper.ACCEPT_HEADER)
        .containsEntry("accept-encoding", "gzip")
        .containsEntry("x-prometheus-scrape-timeout-seconds", "2");
  }

  @Test
  void secondScrapeReusesCacheAndMarksVanishedSeriesStale() {
    targets.set("s", TestTargets.page(SMALL));
    ScrapeLoop l = loop("s", CFG);
    l.scrapeOnce();
    pause();
    targets.set("s", TestTargets.page("a_total 2\nb{x=\"1\"} 5\n"));
    l.scrapeOnce();

    assertThat(storage.values("scrape_series_added", instance())).containsExactly(3.0, 0.0);
    List<RecordingStorage.Sample> gone = storage.samples(x -> x.get("x").equals("2"));
    assertThat(gone).hasSize(2);
    assertThat(gone.get(1).stale()).isTrue();
    assertThat(storage.samples(x -> x.get("x").equals("1")))
        .extracting(RecordingStorage.Sample::v)
        .containsExactly(2.0, 5.0);
  }

  /** Stands for {@link #truncatedError()}, which differs between the fetchers. */
  private static final String TRUNCATED = new String("<truncated>");

  /** A bad page, the error the target shows, and the config it is scraped with. */
  record Bad(String name, TestTargets.Behavior behavior, String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> badTargets() {
    return Stream.of(
        new Bad(
            "500",
            TestTargets.status(500),
            "server returned HTTP status 500 Internal Server Error"),
        new Bad("404", TestTargets.status(404), "server returned HTTP status 404 Not Found"),
        new Bad("timeout", TestTargets.slow(4_000, SMALL), "scrape timed out after 2s"),
        new Bad("trickle", TestTargets.trickle(150, 30), "scrape timed out after 2s"),
        new Bad("truncated", TestTargets.truncated(SMALL + SMALL, 10_000, 20), TRUNCATED),
        new Bad(
            "over limit, plain",
            TestTargets.page("x".repeat(100 << 10).getBytes(), "text/plain"),
            "body size limit exceeded"),
        new Bad("over limit, gzipped", TestTargets.gzipBomb(1 << 20), "body size limit exceeded"),
        new Bad("garbage", TestTargets.page("<html><body>hello</body></html>\n"), "line 1"),
        new Bad(
            "cut OpenMetrics page",
            TestTargets.page(
                "# TYPE a counter\na_total 1\n".getBytes(),
                "application/openmetrics-text; version=1.0.0"),
            "EOF"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badTargets")
  void badScrapeCommitsNothingAndMarksEverythingStale(Bad bad) {
    targets.set("t", TestTargets.page(SMALL));
    ScrapeLoop l = loop("t", CFG);
    l.scrapeOnce();
    long goodSeries = storage.samples().size();
    pause();
    targets.set("t", bad.behavior());
    l.scrapeOnce();

    assertThat(l.target().health()).isEqualTo(TargetHealth.DOWN);
    assertThat(l.target().lastError())
        .contains(bad.error() == TRUNCATED ? truncatedError() : bad.error());
    assertThat(storage.values("up", instance())).containsExactly(1.0, 0.0);
    List<RecordingStorage.Sample> second =
        storage.samples().subList((int) goodSeries, storage.samples().size());
    List<RecordingStorage.Sample> pageSamples =
        second.stream()
            .filter(s -> !ScrapeLoopHttpTestSupport.isReport(s.labels()))
            .collect(Collectors.toList());
    // Only staleness markers, one for each of the three series of the good scrape.
    assertThat(pageSamples).hasSize(3).allMatch(RecordingStorage.Sample::stale);
    assertThat(storage.values("scrape_samples_post_metric_relabeling", instance()).get(1))
        .isIn(0.0, 1.0, 2.0, 3.0);
  }

  @Test
  void gzippedPageWithinTheLimitIsAccepted() {
    String body = "big_metric{i=\"1\"} 1\n".repeat(1000); // 20 KB plain, tiny gzipped
    targets.set("z", TestTargets.page(body));
    ScrapeLoop l = loop("z", CFG);
    l.scrapeOnce();
    assertThat(l.target().lastError()).isEmpty();
    assertThat(storage.values("scrape_samples_scraped", instance())).containsExactly(1000.0);
  }

  @Test
  void failedScrapeAfterFailedScrapeWritesNoSecondMarkers() {
    targets.set("f", TestTargets.page(SMALL));
    ScrapeLoop l = loop("f", CFG);
    l.scrapeOnce();
    pause();
    targets.set("f", TestTargets.status(503));
    l.scrapeOnce();
    pause();
    l.scrapeOnce();
    long markers =
        storage.samples(x -> x.metricName().equals("b")).stream()
            .filter(RecordingStorage.Sample::stale)
            .count();
    assertThat(markers).isEqualTo(2); // b{x=1}, b{x=2}: once each
    assertThat(storage.values("up", instance())).containsExactly(1.0, 0.0, 0.0);
  }

  @Test
  void stoppedLoopMarksItsSeriesAndReportStale() {
    targets.set("g", TestTargets.page(SMALL));
    ScrapeLoop l = loop("g", CFG);
    l.scrapeOnce();
    pause();
    l.stop(true);
    assertThat(storage.metric("a_total"))
        .extracting(RecordingStorage.Sample::stale)
        .containsExactly(false, true);
    assertThat(storage.metric("up"))
        .extracting(RecordingStorage.Sample::stale)
        .containsExactly(false, true);
  }

  private static double countSamples(String page) {
    return page.lines().filter(x -> !x.isBlank() && !x.startsWith("#")).count();
  }
}
