package dev.infermon.simulator.testing;

import dev.infermon.simulator.replay.ReplayFleet;
import dev.infermon.simulator.replay.ReplayTarget;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Replayed captures scraped into storage in simulated time, as {@link FleetScrape} does for a
 * simulated fleet: every {@link #STEP} each target's page (as {@link ReplayFleet#render} gives it
 * for that instant) is parsed with textparse, in the capture's format, and appended with the
 * target's labels plus {@code job} and {@code instance} ({@link #targetLabels}), and {@code up} 1.
 * Without the scrape pipeline itself: no report series but {@code up}, no staleness markers.
 * Immutable; {@link #run} appends one transaction per step.
 *
 * <pre>{@code
 * ReplayFleet fleet = ReplayFleet.of(List.of(Captures.get("vllm-0.4.3.txt").target()), t0);
 * new ReplayScrape(tsdb, false).run(fleet, t0, t0 + Duration.ofMinutes(30).toMillis());
 * }</pre>
 */
public final class ReplayScrape {
  /** The scrape interval. */
  public static final Duration STEP = Duration.ofSeconds(15);

  private final Appendable storage;
  private final boolean honorLabels;

  /**
   * @param honorLabels as the scrape option: true, a page's label wins over the target's of the
   *     same name; false, the target's wins and the page's is kept as {@code exported_<name>}
   */
  public ReplayScrape(Appendable storage, boolean honorLabels) {
    this.storage = storage;
    this.honorLabels = honorLabels;
  }

  /**
   * The target's labels with {@code job} and {@code instance} ({@code <name>:8000}, or {@code
   * :9400} for job {@code dcgm}), as the inference discovery sets them.
   */
  public static Map<String, String> targetLabels(ReplayTarget t) {
    Map<String, String> labels = new LinkedHashMap<>(t.labels());
    labels.put("job", t.job());
    labels.put("instance", t.name() + ":" + (t.job().equals("dcgm") ? 9400 : 8000));
    return labels;
  }

  /**
   * Scrapes every target at {@code fromMillis}, then every {@link #STEP} up to {@code toMillis}.
   */
  public void run(ReplayFleet fleet, long fromMillis, long toMillis) {
    for (long t = fromMillis; t <= toMillis; t += STEP.toMillis()) {
      Appender app = storage.appender();
      try {
        for (ReplayTarget target : fleet.targets()) {
          Map<String, String> labels = targetLabels(target);
          PageAppender.up(app, labels, t, 1);
          PageAppender.append(
              app,
              fleet.render(target.name(), t),
              target.capture().format(),
              labels,
              t,
              honorLabels);
        }
        app.commit();
      } catch (Exception e) {
        app.rollback();
        throw new IllegalStateException("cannot load a replayed page: " + e.getMessage(), e);
      }
    }
  }
}
