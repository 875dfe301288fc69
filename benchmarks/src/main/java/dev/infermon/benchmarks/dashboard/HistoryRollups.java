package dev.infermon.benchmarks.dashboard;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.promql.backend.RollupWriter;
import dev.infermon.promql.backend.Rollups;
import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.SeriesSet;
import dev.infermon.tsdb.Tsdb;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The dashboard's stored answers of a {@link FleetHistory}, in {@code data/rollups} as {@code
 * serve} keeps them, written by the writer {@code serve} runs ({@link RollupWriter#standard}) with
 * its clock at the history's end: the build's catch-up writes what a live server would have written
 * by then; the measuring process's first call writes nothing more and sets the texts the reader
 * answers for.
 */
final class HistoryRollups {
  private HistoryRollups() {}

  /** The store beside the history's TSDB in {@code data}. */
  static Tsdb open(Path data) throws IOException {
    return Tsdb.open(data.resolve("rollups"));
  }

  /**
   * The writer over {@code db} into {@code store}: the dashboard's default queries for the fleet at
   * {@code endMs}, evaluated by an engine of its own (not the measured one, whose counts it would
   * skew).
   */
  static RollupWriter writer(Rollups rollups, Tsdb db, Tsdb store, long endMs) {
    EmbeddedQueryBackend raw =
        new EmbeddedQueryBackend(
            db,
            new Engine(EngineOptions.DEFAULTS.withMaxSamples(200_000_000)),
            db::appendableMinTime,
            db);
    DashboardService dashboard = new DashboardService(raw, Catalog.builtIn());
    return RollupWriter.standard(
        rollups,
        raw,
        () -> dashboard.defaultQueries(endMs, rollups.intervalMs()),
        () -> endMs,
        db::startTime,
        store::appendableMinTime,
        System.out::println);
  }

  /** The series the store holds (answers and markers) and their samples: the rollups' cost. */
  static long[] seriesAndSamples(Tsdb store) {
    long series = 0;
    long samples = 0;
    try (Querier q = store.querier()) {
      SeriesSet set =
          q.select(
              false,
              Long.MIN_VALUE,
              Long.MAX_VALUE,
              List.of(Matcher.regex(Labels.METRIC_NAME, "infermon_rollup.*")));
      while (set.next()) {
        series++;
        SampleIterator it = set.at().iterator();
        while (it.next()) {
          samples++;
        }
      }
    }
    return new long[] {series, samples};
  }
}
