package dev.infermon.benchmarks.dashboard;

import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.backend.QueryStack;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.web.WebServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What one full dashboard load asks of the query stack, for a side-by-side run with another engine:
 * the load of {@link DashboardLoadMain} (its server, stack and requests, {@link DashboardLoad})
 * over a fleet's history ({@link FleetHistory}) on the UI's window at the history's end, with every
 * range query, instant query and series lookup the stack is asked recorded ({@link
 * RecordingBackend}), each distinct one once.
 */
public final class DashboardQueryLog {
  private DashboardQueryLog() {}

  /** What a recorded call was. */
  public enum Kind {
    RANGE,
    INSTANT,
    SERIES
  }

  /**
   * One distinct call: a query's text (a series lookup's selectors, one a line), its range ({@code
   * start == end} for an instant query) and step (0 but for a range query), milliseconds.
   */
  public record Asked(Kind kind, String query, long startMs, long endMs, long stepMs) {}

  /** A fleet history directory's parameters, as built. */
  public record History(int pods, int hours, int scrapeSeconds, long endMs, long samples) {}

  /**
   * The history built in {@code dir} by {@link DashboardLoadMain}.
   *
   * @throws IllegalArgumentException naming {@code dir} when no history was built there
   */
  public static History history(Path dir) throws IOException {
    FleetHistory h = FleetHistory.read(dir);
    if (h == null) {
      throw new IllegalArgumentException(
          dir + " holds no fleet history (build one with DashboardLoadMain -Ddashload.dir=...)");
    }
    return new History(h.pods, h.hours, h.scrapeSeconds, h.endMs, h.samples);
  }

  /** The TSDB directory of the history in {@code dir}. */
  public static Path data(Path dir) {
    return dir.resolve("data");
  }

  /**
   * The distinct calls of one load, in the order first asked, over {@code db} (the history's TSDB,
   * opened by the caller): the layout, the filters' label values, the adapters, every panel and the
   * catalog's families, sent over 127.0.0.1 one after another.
   */
  public static List<Asked> oneLoad(Tsdb db, History h) throws IOException, InterruptedException {
    RecordingBackend recorder =
        new RecordingBackend(
            QueryStack.of(
                new EmbeddedQueryBackend(
                    db,
                    new Engine(EngineOptions.DEFAULTS.withMaxSamples(200_000_000)),
                    db::appendableMinTime,
                    db)));
    long range = h.hours() * 3600L;
    double end = DashboardLoad.uiEndSeconds(h.endMs(), DashboardLoad.stepFor(range));
    try (WebServer web = DashboardLoad.serve(db, recorder)) {
      DashboardLoad ui = new DashboardLoad("http://127.0.0.1:" + web.port());
      byte[] layout = ui.send(DashboardLoad.layout());
      for (DashboardLoad.Request r :
          DashboardLoad.requests(DashboardLoad.panelIds(layout), end, range)) {
        ui.send(r);
      }
    }
    return recorder.asked();
  }
}
