package dev.infermon.benchmarks.promql;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.promql.testing.PrometheusProcess;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Queryable;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.SeriesSet;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Every series and sample of an infermon store, as Prometheus 2.42 blocks: written as OpenMetrics
 * text and turned into blocks by {@code promtool tsdb create-blocks-from openmetrics}. promtool
 * cuts blocks at multiples of two hours (epoch-aligned) and parses its whole input once per block,
 * so the samples are written one file per such window, each backfilled and deleted before the next
 * is written: each file makes exactly one block, and the disk holds one window's text at a time.
 * With {@code shards > 1} a window's series are split over that many files (by their labels' hash),
 * each backfilled into a block of its own: blocks of the same window then overlap, and Prometheus
 * merges them when it starts ({@link #awaitMerged}). Within a file each series' samples are in time
 * order (promtool appends them to one head per block, which refuses an older sample after a newer
 * one).
 *
 * <p>Exact by construction: a value is written as the shortest decimal Go's {@code ParseFloat}
 * reads back to the same double; a timestamp as seconds that 2.42's parser ({@code int64(ts *
 * 1000)}, truncating) turns back into the same millisecond. A staleness marker cannot be written in
 * text (the parser reads every NaN as an ordinary one), so one is counted and left out.
 */
final class OpenMetricsExport {
  /** promtool's block range ({@code tsdb.DefaultBlockDuration}), which its blocks align to. */
  static final long WINDOW_MS = 2 * 3_600_000L;

  private OpenMetricsExport() {}

  /** What was exported: series (distinct over all windows), samples, bytes of text, timings. */
  record Result(
      long series,
      long samples,
      long staleMarkersLeftOut,
      long bytes,
      int blocks,
      double exportSeconds,
      double promtoolSeconds) {}

  /**
   * Writes every sample of {@code db} in {@code [mint, maxt]} into Prometheus blocks in {@code
   * promData}, through OpenMetrics files in {@code work} (deleted once backfilled).
   */
  static Result toPrometheus(
      Queryable db,
      long mint,
      long maxt,
      int shards,
      Path work,
      Path promData,
      Duration promtoolTimeout)
      throws IOException, InterruptedException {
    Set<Labels> series = new HashSet<>();
    long samples = 0;
    long stale = 0;
    long bytes = 0;
    int blocks = 0;
    long exportNanos = 0;
    long promtoolNanos = 0;
    Files.createDirectories(promData);
    for (long w = Math.floorDiv(mint, WINDOW_MS) * WINDOW_MS; w <= maxt; w += WINDOW_MS) {
      for (int shard = 0; shard < shards; shard++) {
        Path om = work.resolve("window-" + w + "-" + shard + ".om.txt");
        long t0 = System.nanoTime();
        long[] counts;
        try (Writer out = Files.newBufferedWriter(om, StandardCharsets.UTF_8);
            Querier q = db.querier()) {
          long from = Math.max(w, mint);
          long to = Math.min(w + WINDOW_MS - 1, maxt);
          counts = write(q, from, to, shard, shards, out, series);
        }
        exportNanos += System.nanoTime() - t0;
        bytes += Files.size(om);
        samples += counts[0];
        stale += counts[1];
        if (counts[0] > 0) {
          t0 = System.nanoTime();
          PrometheusProcess.backfill(om, promData, promtoolTimeout);
          promtoolNanos += System.nanoTime() - t0;
          blocks++;
        }
        Files.delete(om);
      }
    }
    return new Result(
        series.size(), samples, stale, bytes, blocks, exportNanos / 1e9, promtoolNanos / 1e9);
  }

  /**
   * One window's samples as OpenMetrics, of the series whose labels' hash is {@code shard} modulo
   * {@code shards}; {samples written, staleness markers left out}.
   */
  static long[] write(
      Querier q, long mint, long maxt, int shard, int shards, Writer out, Set<Labels> seen)
      throws IOException {
    SeriesSet set = q.select(false, mint, maxt, List.of(Matcher.regex(Labels.METRIC_NAME, ".+")));
    long samples = 0;
    long stale = 0;
    StringBuilder line = new StringBuilder(512);
    while (set.next()) {
      Labels labels = set.at().labels();
      if (Math.floorMod(labels.hashCode(), shards) != shard) {
        continue;
      }
      String prefix = seriesText(labels);
      SampleIterator it = set.at().iterator();
      boolean any = false;
      while (it.next()) {
        double v = it.value();
        if (StaleNaN.is(v)) {
          stale++;
          continue;
        }
        line.setLength(0);
        line.append(prefix).append(' ').append(value(v)).append(' ');
        line.append(timestamp(it.timestamp())).append('\n');
        out.append(line);
        samples++;
        any = true;
      }
      if (any) {
        seen.add(labels);
      }
    }
    out.write("# EOF\n");
    return new long[] {samples, stale};
  }

  /**
   * Waits until {@code promData} holds no two blocks whose time ranges overlap: Prometheus merges
   * overlapping blocks in its compaction loop (about a minute after it starts), and a query while
   * they are apart would read both.
   *
   * @throws IOException when they are not merged within {@code timeout}
   */
  static void awaitMerged(Path promData, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (overlapping(promData)) {
      if (System.nanoTime() > deadline) {
        throw new IOException("Prometheus did not merge the overlapping blocks in " + timeout);
      }
      Thread.sleep(1000);
    }
  }

  private static boolean overlapping(Path promData) throws IOException {
    List<long[]> ranges = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> dirs = Files.list(promData)) {
      for (Path d : (Iterable<Path>) dirs::iterator) {
        Path meta = d.resolve("meta.json");
        if (!Files.exists(meta)) {
          continue;
        }
        @SuppressWarnings("unchecked")
        java.util.Map<String, Object> m =
            (java.util.Map<String, Object>) PrometheusProcess.parseJson(Files.readString(meta));
        ranges.add(
            new long[] {
              ((Number) m.get("minTime")).longValue(), ((Number) m.get("maxTime")).longValue()
            });
      }
    }
    ranges.sort(java.util.Comparator.comparingLong(r -> r[0]));
    for (int i = 1; i < ranges.size(); i++) {
      if (ranges.get(i)[0] < ranges.get(i - 1)[1]) {
        return true;
      }
    }
    return false;
  }

  /** {@code name{label="value",...}}, values escaped as OpenMetrics requires. */
  static String seriesText(Labels l) {
    StringBuilder sb = new StringBuilder(l.metricName()).append('{');
    boolean first = true;
    for (int i = 0; i < l.size(); i++) {
      if (l.name(i).equals(Labels.METRIC_NAME)) {
        continue;
      }
      if (!first) {
        sb.append(',');
      }
      first = false;
      sb.append(l.name(i)).append("=\"");
      Labels.escapeInto(sb, l.value(i));
      sb.append('"');
    }
    return sb.append('}').toString();
  }

  /** A value Go's ParseFloat reads back as {@code v} exactly (negative zero included). */
  static String value(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0 && 1 / v < 0) {
      return "-0";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v);
  }

  /**
   * Seconds that Prometheus 2.42's OpenMetrics parser turns back into {@code ms}: it parses them as
   * a float and truncates {@code ts * 1000}, so {@code "1.001"} can come back one millisecond
   * short; then the next double up is written instead.
   *
   * @throws IllegalArgumentException naming {@code ms} when it is negative or no such text is found
   */
  static String timestamp(long ms) {
    if (ms < 0) {
      throw new IllegalArgumentException("negative timestamp " + ms);
    }
    if (ms % 1000 == 0) {
      return Long.toString(ms / 1000);
    }
    String text = String.format(Locale.ROOT, "%d.%03d", ms / 1000, ms % 1000);
    double d = Double.parseDouble(text);
    for (int i = 0; i < 4; i++) {
      if (parsedMillis(text) == ms) {
        return text;
      }
      d = Math.nextUp(d);
      text = Double.toString(d);
    }
    throw new IllegalArgumentException("no OpenMetrics timestamp reads back as " + ms + " ms");
  }

  /** What 2.42's parser makes of a timestamp's text: {@code int64(ParseFloat(text) * 1000)}. */
  static long parsedMillis(String text) {
    return (long) (Double.parseDouble(text) * 1000);
  }
}
