package dev.infermon.benchmarks.tsdb;

import dev.infermon.storage.ChainSampleIterator;
import dev.infermon.storage.SampleIterator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of the chain iterator alone, in ns per sample: one series split over two 2-hour blocks and a
 * 1-hour head at 15 s (1,200 samples), served from arrays so that decoding does not hide the merge.
 * Blocks and head use two iterator classes, as in the real query path (a bimorphic call site).
 * {@code overlapping} merges two copies of the same samples (dedup on every sample); {@code
 * seekEveryMinute} walks the series as a range query does, by seek at a 60 s step. {@link
 * ChainIterateCpuMain} runs the same methods timed by thread CPU, for a loaded machine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
public class ChainIterateBenchmark {
  static final long STEP = 15_000;
  static final int BLOCK = 480;
  static final int HEAD = 240;
  static final int TOTAL = 2 * BLOCK + HEAD;

  private long[] ts;
  private double[] vs;

  @Setup
  public void fill() {
    ts = new long[TOTAL];
    vs = new double[TOTAL];
    for (int i = 0; i < TOTAL; i++) {
      ts[i] = i * STEP;
      vs[i] = i * 0.5;
    }
  }

  private SampleIterator[] blocksAndHead() {
    return new SampleIterator[] {
      new BlockLike(ts, vs, 0, BLOCK),
      new BlockLike(ts, vs, BLOCK, 2 * BLOCK),
      new HeadLike(ts, vs, 2 * BLOCK, TOTAL)
    };
  }

  @Benchmark
  @OperationsPerInvocation(TOTAL)
  public double twoBlocksAndHead() {
    SampleIterator it = new ChainSampleIterator(blocksAndHead());
    double sum = 0;
    while (it.next()) {
      sum += it.value() + it.timestamp();
    }
    return sum;
  }

  @Benchmark
  @OperationsPerInvocation(TOTAL)
  public double overlapping() {
    SampleIterator it =
        new ChainSampleIterator(
            new SampleIterator[] {new BlockLike(ts, vs, 0, TOTAL), new HeadLike(ts, vs, 0, TOTAL)});
    double sum = 0;
    while (it.next()) {
      sum += it.value() + it.timestamp();
    }
    return sum;
  }

  @Benchmark
  @OperationsPerInvocation(TOTAL / 4)
  public double seekEveryMinute() {
    SampleIterator it = new ChainSampleIterator(blocksAndHead());
    double sum = 0;
    for (long t = 0; t < TOTAL * STEP; t += 4 * STEP) {
      if (!it.seek(t)) {
        break;
      }
      sum += it.value();
    }
    return sum;
  }

  /** Array-backed iterator standing in for a block's. */
  static final class BlockLike implements SampleIterator {
    private final long[] ts;
    private final double[] vs;
    private final int from;
    private final int end;
    private int i;

    BlockLike(long[] ts, double[] vs, int from, int to) {
      this.ts = ts;
      this.vs = vs;
      this.from = from;
      this.i = from - 1;
      this.end = to;
    }

    @Override
    public boolean next() {
      return ++i < end;
    }

    @Override
    public boolean seek(long t) {
      i = Math.max(i, from);
      while (i < end && ts[i] < t) {
        i++;
      }
      return i < end;
    }

    @Override
    public long timestamp() {
      return ts[i];
    }

    @Override
    public double value() {
      return vs[i];
    }
  }

  /** The same as {@link BlockLike}, as a second class, standing in for the head's. */
  static final class HeadLike implements SampleIterator {
    private final long[] ts;
    private final double[] vs;
    private final int from;
    private final int end;
    private int i;

    HeadLike(long[] ts, double[] vs, int from, int to) {
      this.ts = ts;
      this.vs = vs;
      this.from = from;
      this.i = from - 1;
      this.end = to;
    }

    @Override
    public boolean next() {
      return ++i < end;
    }

    @Override
    public boolean seek(long t) {
      i = Math.max(i, from);
      while (i < end && ts[i] < t) {
        i++;
      }
      return i < end;
    }

    @Override
    public long timestamp() {
      return ts[i];
    }

    @Override
    public double value() {
      return vs[i];
    }
  }
}
