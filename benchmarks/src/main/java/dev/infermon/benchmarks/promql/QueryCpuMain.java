package dev.infermon.benchmarks.promql;

import dev.infermon.promql.engine.Engine;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.tsdb.TsdbOptions;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One dashboard query, infermon only, in a tight loop measured by the thread's CPU time: for
 * profiling one query (under JFR) and for before/after figures that the machine's load moves less
 * than wall time. The data and the storage layout are those of {@link PromqlVsPrometheus} (same
 * fleet, appended then compacted: two 2 h blocks plus the head), as are the range (start 5 min
 * after the data, 7 s off the scrape grid, 60 s step).
 *
 * <p>Run: {@code java -Xms4g -Xmx4g -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar
 * dev.infermon.benchmarks.promql.QueryCpuMain <query name prefix> <range|instant> [rounds] [queries
 * per round]}. Prints the median and minimum CPU time per query over the rounds (the first third of
 * the rounds are warm-up and not counted). {@code -Dquerycpu.cold=true} evicts the CPU caches
 * before every query (not timed); {@code -Dquerycpu.parseOnce=true} leaves parsing out.
 */
public final class QueryCpuMain {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private QueryCpuMain() {}

  public static void main(String[] args) throws Exception {
    String name = args[0];
    boolean range = args[1].equals("range");
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    int perRound = args.length > 3 ? Integer.parseInt(args[3]) : 20;
    DashboardQueries.Query query =
        DashboardQueries.ALL.stream()
            .filter(q -> q.name().startsWith(name))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no query named " + name));
    double hours = 6;
    long step = 60_000;
    FleetData data = new FleetData(100, hours + 5 / 60.0, 1);
    Path dir = Files.createTempDirectory("infermon-querycpu");
    TsdbOptions options =
        new TsdbOptions(
            TsdbOptions.DEFAULT_BLOCK_RANGE,
            Duration.ofDays(3650),
            0,
            TsdbOptions.DEFAULT_WAL_SEGMENT_BYTES,
            TsdbOptions.DEFAULT_WAL_SYNC_INTERVAL,
            Duration.ofDays(1),
            TsdbOptions.DEFAULT_READER_DRAIN_TIMEOUT);
    try (Tsdb tsdb = Tsdb.open(dir, options)) {
      data.loadInto(tsdb);
      tsdb.compact();
      data = null;
      System.gc();
      Engine engine = new Engine(EngineOptions.DEFAULTS);
      long start = FleetData.time(0) + 300_000 + 7_000;
      long end = start + (long) (hours * 3_600_000) - step;
      long[] perQuery = new long[rounds];
      // -Dquerycpu.cold=true: evict the CPU caches before every query, as the side-by-side bench
      // does by running Prometheus between two infermon queries; the eviction is not timed.
      long[] evict = Boolean.getBoolean("querycpu.cold") ? new long[32 << 20] : null;
      // -Dquerycpu.parseOnce=true: parse once, outside the timed loop (as Prometheus's
      // evalTotalTime excludes its parse); by default every query is parsed and timed with it.
      Expr parsed =
          Boolean.getBoolean("querycpu.parseOnce") ? PromqlParser.parse(query.promql()) : null;
      for (int r = 0; r < rounds; r++) {
        long c0 = THREADS.getCurrentThreadCpuTime();
        long excluded = 0;
        for (int i = 0; i < perRound; i++) {
          if (evict != null) {
            long e0 = THREADS.getCurrentThreadCpuTime();
            for (int k = 0; k < evict.length; k += 8) {
              evict[k]++;
            }
            excluded += THREADS.getCurrentThreadCpuTime() - e0;
          }
          Expr expr = parsed != null ? parsed : PromqlParser.parse(query.promql());
          Object v =
              range
                  ? engine.rangeQuery(tsdb, expr, start, end, step)
                  : engine.instantQuery(tsdb, expr, end);
          if (v == null) {
            throw new IllegalStateException("no result");
          }
        }
        perQuery[r] = (THREADS.getCurrentThreadCpuTime() - c0 - excluded) / perRound;
      }
      long[] timed = Arrays.copyOfRange(perQuery, rounds / 3, rounds);
      Arrays.sort(timed);
      System.out.printf(
          "%s (%s): cpu per query median %.3f ms, min %.3f ms (%d rounds of %d after %d warm-up)%n",
          query.name(),
          args[1],
          timed[timed.length / 2] / 1e6,
          timed[0] / 1e6,
          timed.length,
          perRound,
          rounds / 3);
    } finally {
      try (Stream<Path> walk = Files.walk(dir)) {
        for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
          Files.delete(p);
        }
      }
    }
  }
}
