package dev.infermon.benchmarks.tsdb;

import dev.infermon.benchmarks.data.LlmSeriesGenerator;
import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.tsdb.TsdbOptions;
import dev.infermon.tsdb.fileutil.FileUtil;
import dev.infermon.tsdb.head.Head;
import dev.infermon.tsdb.head.HeadOptions;
import dev.infermon.tsdb.wal.ReplaySink;
import dev.infermon.tsdb.wal.ReplayStats;
import dev.infermon.tsdb.wal.WalReplay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The head's open time: replaying a write-ahead log of {@code pods} × 379 vLLM series (132 pods:
 * 50,028 series; 528 pods: 200,112) into a new head, as {@code Tsdb.open} does (a head with a chunk
 * directory, the log read by {@link WalReplay}, series by reference, samples), with the postings'
 * bulk load ({@code bulk}: {@code Head.beginReplay}, the open since the bulk load) or without
 * ({@code ordered}: every series inserted in id order into its postings lists, the open before).
 *
 * <p>The log is written once per trial through a real {@link Tsdb} with 60 s blocks: 8 scrapes at
 * 15 s, a head compaction (a block and a checkpoint, whose series come in the head's table order,
 * as after any compaction of a running server), then 2 more scrapes into the segment after the
 * checkpoint. Replay reads 10 samples per series, 8 from the checkpoint.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx4g", "-XX:+UseParallelGC"})
public class HeadReplayBenchmark {
  static final long BLOCK_MS = 60_000;

  @Param({"132", "528"})
  public int pods;

  @Param({"ordered", "bulk"})
  public String postings;

  private Path dir;
  private Path wal;
  private long minValid;
  private Head head;

  @Setup(Level.Trial)
  public void writeLog() throws IOException, InterruptedException {
    if (!postings.equals("ordered") && !postings.equals("bulk")) {
      throw new IllegalArgumentException("postings must be ordered or bulk, not " + postings);
    }
    dir = Files.createTempDirectory("infermon-replay-bench");
    Path data = dir.resolve("data");
    TsdbOptions options =
        TsdbOptions.defaults()
            .withBlockRange(Duration.ofMillis(BLOCK_MS))
            .withCompactionInterval(Duration.ofHours(1)) // compact() is called below
            .withRetentionTime(Duration.ZERO);
    LlmSeriesGenerator gen = LlmSeriesGenerator.vllmFleet(pods, 1);
    try (Tsdb db = Tsdb.open(data, options)) {
      long[] refs = new long[gen.size()];
      scrape(db, gen, refs, 8);
      db.compact();
      if (db.blocks().isEmpty()) {
        throw new IllegalStateException("no block was cut, so the log has no checkpoint");
      }
      minValid = db.blocks().get(db.blocks().size() - 1).maxTime();
      scrape(db, gen, refs, 2);
    }
    wal = data.resolve("wal");
  }

  /** One transaction per pod and scrape, references cached, as scrape loops append. */
  private static void scrape(Tsdb db, LlmSeriesGenerator gen, long[] refs, int scrapes) {
    List<Labels> labels = gen.labels();
    double[] values = new double[gen.size()];
    int perPod = gen.seriesPerPod();
    for (int s = 0; s < scrapes; s++) {
      long t = gen.next(values);
      for (int p = 0; p < gen.pods(); p++) {
        Appender app = db.appender();
        for (int j = p * perPod, end = j + perPod; j < end; j++) {
          refs[j] = app.append(refs[j], labels.get(j), t, values[j]);
        }
        app.commit();
      }
    }
  }

  @Setup(Level.Invocation)
  public void newHead() throws IOException {
    Path chunks = dir.resolve("head_chunks");
    head = Head.create(HeadOptions.defaults().withChunkRangeMs(BLOCK_MS).withChunkDir(chunks));
    head.setMinValidTime(minValid);
  }

  @TearDown(Level.Invocation)
  public void closeHead() {
    head.close();
  }

  @TearDown(Level.Trial)
  public void deleteLog() throws IOException {
    FileUtil.deleteRecursively(dir);
  }

  /** Replays the log into a new head; returns the head's series count. */
  @Benchmark
  public long open() throws IOException {
    if (postings.equals("bulk")) {
      head.beginReplay();
    }
    Sink sink = new Sink(head);
    ReplayStats rs = WalReplay.replay(wal, minValid, sink);
    head.reserveSeriesRefs(rs.maxRef());
    head.endReplay();
    return head.stats().series();
  }

  /** What {@code Tsdb.open}'s replay sink does, without its future window. */
  private static final class Sink implements ReplaySink {
    private final Head head;

    Sink(Head head) {
      this.head = head;
    }

    @Override
    public void series(long ref, Labels labels) {
      head.replaySeries(ref, labels);
    }

    @Override
    public boolean sample(long ref, long t, double v) {
      return head.replaySample(ref, t, v) != Head.Replayed.NO_SERIES;
    }
  }
}
