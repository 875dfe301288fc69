package dev.infermon.scrape;

import dev.infermon.config.scrape.ScrapeConfig;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appendable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Appends pages that were fetched elsewhere (a simulated fleet's history, a capture) through the
 * scrape pipeline itself, so that backfilled series are indistinguishable from live ones: the same
 * target labels (target relabeling, {@code job}, {@code instance}), the same {@code honor_labels}
 * and {@code exported_*} rules, {@code metric_relabel_configs} and limits, the same staleness
 * markers, and the report series ({@code up}, {@code scrape_duration_seconds}, ...). Each page is
 * one storage transaction stamped with the time it was taken; a live scrape loop for the same
 * target continues its series afterwards.
 *
 * <pre>{@code
 * for (Backfill b : Backfill.targets(scrapeConfig, group, tsdb)) { ... }
 * b.append(timeMillis, pageBytes, "text/plain; version=0.0.4");
 * }</pre>
 *
 * <p>Pages must come in time order per target and, for a head-based storage, roughly in time order
 * across targets (the head refuses samples far behind its newest). Not thread-safe: one thread per
 * instance; distinct instances may run in parallel.
 */
public final class Backfill {
  private final Target target;
  private final CannedScraper scraper = new CannedScraper();
  private final ScrapeLoop loop;

  private Backfill(Target target, ScrapeConfig cfg, Appendable storage) {
    this.target = target;
    this.loop = new ScrapeLoop(target, scraper, storage, PoolSettings.of(cfg), ScrapeMetrics.NOOP);
  }

  /**
   * The targets a scrape pool with {@code cfg} would make of {@code group} (dropped ones left out),
   * each appending to {@code storage}.
   *
   * @throws IllegalArgumentException when a target of the group is invalid (no address, bad
   *     interval), with the reason a live pool would log
   */
  public static List<Backfill> targets(ScrapeConfig cfg, TargetGroup group, Appendable storage) {
    Objects.requireNonNull(cfg, "cfg");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(storage, "storage");
    List<Backfill> out = new ArrayList<>();
    for (TargetBuilder.Result r : TargetBuilder.fromGroup(cfg.jobName(), group, cfg)) {
      if (r.error() != null) {
        throw new IllegalArgumentException(
            "target " + r.discovered() + " of group " + group.source() + ": " + r.error());
      }
      if (r.target() != null) {
        out.add(new Backfill(r.target(), cfg, storage));
      }
    }
    return out;
  }

  /** The labels every series of this target gets: the target's labels without {@code __*}. */
  public Labels labels() {
    return target.labels();
  }

  /** The URL a live scrape of this target fetches. */
  public String url() {
    return target.url();
  }

  /**
   * Appends one page taken at {@code timeMillis} (a parse error or a limit fails it as a live
   * scrape would: nothing of the page, staleness markers, {@code up} 0).
   *
   * @param contentType the page's Content-Type, which picks the parser (null: text 0.0.4)
   * @return whether the page was accepted ({@code up} 1)
   */
  public boolean append(long timeMillis, byte[] page, String contentType) {
    Objects.requireNonNull(page, "page");
    scraper.next = new Scraper.Page(page, page.length, contentType);
    scraper.failure = null;
    loop.scrapeAt(timeMillis);
    return target.health() == TargetHealth.UP;
  }

  /** {@link #append(long, byte[], String)} of a text page. */
  public boolean append(long timeMillis, String page, String contentType) {
    return append(timeMillis, page.getBytes(StandardCharsets.UTF_8), contentType);
  }

  /**
   * Records a failed scrape at {@code timeMillis} ({@code reason} as the target's last error): the
   * previous page's series get staleness markers and {@code up} is 0.
   */
  public void fail(long timeMillis, String reason) {
    scraper.next = null;
    scraper.failure = Objects.requireNonNull(reason, "reason");
    loop.scrapeAt(timeMillis);
  }

  /** The page handed over last, in place of an HTTP fetch. */
  private static final class CannedScraper implements Scraper {
    Page next;
    String failure;

    @Override
    public Page fetch(Duration timeout) throws ScrapeFailure {
      if (failure != null) {
        throw new ScrapeFailure(failure);
      }
      return next;
    }
  }
}
