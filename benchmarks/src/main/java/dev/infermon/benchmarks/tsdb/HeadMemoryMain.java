package dev.infermon.benchmarks.tsdb;

import dev.infermon.benchmarks.data.LlmSeriesGenerator;
import dev.infermon.tsdb.head.Head;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Heap retained per active series by a head holding realistic data. Fills a head with a vLLM fleet
 * for some hours at 15 s, drops everything but the head, collects garbage and reports the used heap
 * above the baseline measured before the head existed.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.infermon.benchmarks.tsdb.HeadMemoryMain [series] [hours]} (defaults 50000 and 3; Prometheus's
 * head holds between 2 and 3 hours before compaction).
 */
public final class HeadMemoryMain {
  private HeadMemoryMain() {}

  public static void main(String[] args) throws InterruptedException {
    int wanted = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
    double hours = args.length > 1 ? Double.parseDouble(args[1]) : 3;
    long before = usedAfterGc();

    LlmSeriesGenerator gen = LlmSeriesGenerator.vllmFleet(Math.max(1, wanted / 379), 1);
    int scrapes = (int) Math.round(hours * 3600 * 1000 / LlmSeriesGenerator.STEP_MS);
    Head head = Head.create();
    long start = System.nanoTime();
    long samples = HeadFill.fill(head, gen, scrapes);
    double secs = (System.nanoTime() - start) / 1e9;
    int series = gen.size();
    gen = null; // the head must stand alone: labels and strings it needs are its own references

    long after = usedAfterGc();
    long perSeries = (after - before) / series;
    System.out.printf(
        "series=%d hours=%.1f samples=%d fill=%.1fs (%.0f samples/s incl. generation)%n",
        series, hours, samples, secs, samples / secs);
    System.out.printf(
        "heap retained by head: %.1f MiB, %d bytes per series, %.2f bytes per sample%n",
        (after - before) / 1048576.0, perSeries, (after - before) / (double) samples);
    long[] chunkBytes = new long[2];
    head.exportChunks(
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        (ref, labels, chunks) ->
            chunks.forEach(
                c -> {
                  chunkBytes[0] += c.bytes().length;
                  chunkBytes[1]++;
                }));
    System.out.printf(
        "encoded chunks: %d chunks, %.2f bytes per sample, %d bytes per series; the rest"
            + " (labels, index, series, chunk objects) %d bytes per series%n",
        chunkBytes[1],
        chunkBytes[0] / (double) samples,
        chunkBytes[0] / series,
        perSeries - chunkBytes[0] / series);
    System.out.println("head stats: " + head.stats());
    if (args.length > 2) {
      // Time to take a class histogram: jcmd <pid> GC.class_histogram
      Thread.sleep(Long.parseLong(args[2]) * 1000);
      System.out.println(head.stats().series());
    }
  }

  private static long usedAfterGc() throws InterruptedException {
    MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(100);
      used = Math.min(used, mx.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
