package dev.infermon.benchmarks.tsdb;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.DoubleSupplier;

/**
 * The {@link ChainIterateBenchmark} cases timed by the thread's CPU time, for a machine shared with
 * other work where JMH's wall-clock figure measures the contention too. Each round runs a case
 * 20,000 times; prints the median and minimum ns per sample of the timed rounds.
 *
 * <p>Run: {@code java -Xmx512m -cp benchmarks/target/benchmarks.jar
 * dev.infermon.benchmarks.tsdb.ChainIterateCpuMain [rounds]} (default 15; 5 more warm up first).
 */
public final class ChainIterateCpuMain {
  private static final int REPS = 20_000;
  private static final int WARMUP = 5;

  private ChainIterateCpuMain() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    ChainIterateBenchmark bench = new ChainIterateBenchmark();
    bench.fill();
    run("twoBlocksAndHead", bench::twoBlocksAndHead, ChainIterateBenchmark.TOTAL, rounds);
    run("overlapping", bench::overlapping, ChainIterateBenchmark.TOTAL, rounds);
    run("seekEveryMinute", bench::seekEveryMinute, ChainIterateBenchmark.TOTAL / 4, rounds);
  }

  private static void run(String name, DoubleSupplier op, int perOp, int rounds) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double[] ns = new double[rounds];
    double sink = 0;
    for (int r = -WARMUP; r < rounds; r++) {
      long cpu0 = mx.getCurrentThreadCpuTime();
      for (int i = 0; i < REPS; i++) {
        sink += op.getAsDouble();
      }
      long cpu = mx.getCurrentThreadCpuTime() - cpu0;
      if (r >= 0) {
        ns[r] = (double) cpu / REPS / perOp;
      }
    }
    Arrays.sort(ns);
    System.out.printf(
        "%-18s CPU ns per sample: median %.2f, min %.2f (checksum %.0f)%n",
        name, ns[rounds / 2], ns[0], sink);
  }
}
