package dev.infermon.benchmarks.tsdb;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The {@link HeadAppendBenchmark} workload timed by the thread's CPU time as well as wall time, for
 * a machine shared with other work where JMH's wall-clock figure measures the contention too.
 *
 * <p>Run: {@code java -Xmx2g -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar
 * dev.infermon.benchmarks.tsdb.HeadAppendCpuMain [rounds]} (default 15; the first 5 are warm-up).
 */
public final class HeadAppendCpuMain {
  private HeadAppendCpuMain() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    HeadAppendBenchmark bench = new HeadAppendBenchmark();
    bench.generate();
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int r = 0; r < rounds; r++) {
      long cpu0 = mx.getCurrentThreadCpuTime();
      long wall0 = System.nanoTime();
      Object head = bench.appendOneHour();
      long cpu = mx.getCurrentThreadCpuTime() - cpu0;
      long wall = System.nanoTime() - wall0;
      System.out.printf(
          "round %2d%s: %.2f M samples per CPU second, %.2f M per wall second (%s)%n",
          r,
          r < 5 ? " (warm-up)" : "",
          HeadAppendBenchmark.SAMPLES / (cpu / 1e9) / 1e6,
          HeadAppendBenchmark.SAMPLES / (wall / 1e9) / 1e6,
          head.getClass().getSimpleName());
    }
  }
}
