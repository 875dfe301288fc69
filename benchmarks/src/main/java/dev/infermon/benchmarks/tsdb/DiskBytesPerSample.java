package dev.infermon.benchmarks.tsdb;

import dev.infermon.benchmarks.data.LlmSeriesGenerator;
import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.tsdb.TsdbOptions;
import dev.infermon.tsdb.block.BlockMeta;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Bytes per sample on disk in blocks, for realistic LLM data: a vLLM fleet (the V1 capture's
 * series, counters, gauges and histogram buckets) scraped every 15 s for 24 hours, appended through
 * a {@link Tsdb} with its default 2-hour blocks; the head is compacted as it goes (blocks are also
 * merged into 6 h and 18 h blocks), then the bytes of every block directory (index, chunks, meta)
 * are divided by the samples they hold. The write-ahead log is reported apart: it holds only the
 * head's last hours and is not what retention keeps.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.infermon.benchmarks.tsdb.DiskBytesPerSample [pods] [hours] [dir]} (defaults 10 pods = 3,790
 * series, 24 hours, a temporary directory that is deleted afterwards).
 */
public final class DiskBytesPerSample {
  private DiskBytesPerSample() {}

  public static void main(String[] args) throws Exception {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    double hours = args.length > 1 ? Double.parseDouble(args[1]) : 24;
    boolean keep = args.length > 2;
    Path dir = keep ? Path.of(args[2]) : Files.createTempDirectory("disk-bytes-per-sample");

    LlmSeriesGenerator gen = LlmSeriesGenerator.vllmFleet(pods, 1);
    int scrapes = (int) Math.round(hours * 3_600_000 / LlmSeriesGenerator.STEP_MS);
    TsdbOptions opts =
        TsdbOptions.defaults()
            .withCompactionInterval(Duration.ofDays(1)) // compacted below, deterministically
            .withRetentionTime(Duration.ZERO);
    long appended = 0;
    long start = System.nanoTime();
    try (Tsdb db = Tsdb.open(dir, opts)) {
      List<Labels> labels = gen.labels();
      long[] refs = new long[gen.size()];
      double[] values = new double[gen.size()];
      int perPod = gen.seriesPerPod();
      for (int s = 0; s < scrapes; s++) {
        long t = gen.next(values);
        for (int p = 0; p < pods; p++) {
          Appender app = db.appender();
          for (int j = p * perPod, end = j + perPod; j < end; j++) {
            refs[j] = app.append(refs[j], labels.get(j), t, values[j]);
          }
          app.commit();
          appended += perPod;
        }
        if (s % 240 == 239) {
          db.compact(); // every simulated hour, as the background thread would
        }
      }
      db.compact();
      double secs = (System.nanoTime() - start) / 1e9;

      long blockBytes = 0;
      long blockSamples = 0;
      long indexBytes = 0;
      long chunkBytes = 0;
      for (BlockMeta m : db.blocks()) {
        Path b = dir.resolve(m.ulid());
        blockBytes += size(b);
        indexBytes += Files.size(b.resolve("index"));
        chunkBytes += size(b.resolve("chunks"));
        blockSamples += m.stats().numSamples();
      }
      System.out.printf(
          "series=%d hours=%.1f samples appended=%d in %.1fs (%.0f samples/s through the"
              + " Tsdb, WAL on)%n",
          gen.size(), hours, appended, secs, appended / secs);
      System.out.printf(
          "blocks=%d covering [%d, %d) holding %d samples (the rest is in the head)%n",
          db.blocks().size(),
          db.blocks().get(0).minTime(),
          db.blocks().get(db.blocks().size() - 1).maxTime(),
          blockSamples);
      for (BlockMeta m : db.blocks()) {
        System.out.printf(
            "  block %s level %d range %.0f h: %d samples, %d bytes%n",
            m.ulid(),
            m.compaction().level(),
            (m.maxTime() - m.minTime()) / 3.6e6,
            m.stats().numSamples(),
            size(dir.resolve(m.ulid())));
      }
      System.out.printf(
          "bytes per sample on disk (blocks): %.3f  (chunks %.3f, index %.3f)%n",
          blockBytes / (double) blockSamples,
          chunkBytes / (double) blockSamples,
          indexBytes / (double) blockSamples);
      System.out.printf("write-ahead log: %d bytes%n", size(dir.resolve("wal")));
    } finally {
      if (!keep) {
        delete(dir);
      }
    }
  }

  private static long size(Path p) throws IOException {
    try (Stream<Path> s = Files.walk(p)) {
      return s.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  private static void delete(Path p) throws IOException {
    try (Stream<Path> s = Files.walk(p)) {
      s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
