package dev.infermon.server.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives heap back to the OS when the serial or parallel collector sits on free old-generation
 * space. Those collectors shrink the heap only after a full collection, so one expansion (the cut
 * of every series' open chunk, which the head does for all series at nearly the same sample count)
 * can keep tens of megabytes committed and unused for many minutes: 26 MB of a 74 MB old generation
 * at the end of one scrape benchmark run. Every {@link #CHECK_SECONDS} this looks at the old
 * generation and, when more than {@link #MAX_FREE} of it is free, asks for a full collection
 * ({@code System.gc()}), at most once per {@link #MIN_GAP_SECONDS}; the collection then shrinks the
 * heap to the launcher's {@code -XX:MaxHeapFreeRatio} (at once only with the launcher's {@code
 * -XX:-ShrinkHeapInSteps}: by default the serial collector shrinks by 0%, 10%, 40%, then all of the
 * excess on successive collections, and starts again at 0% after one that did not shrink, so a lone
 * {@code System.gc()} gave nothing back). G1's periodic collection does the same for G1; with G1,
 * ZGC or Shenandoah (no such pool) this does nothing.
 *
 * <p>Threading: one daemon thread of its own; {@link #close()} from any thread.
 */
final class HeapTrim implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HeapTrim.class);

  static final long CHECK_SECONDS = 30;
  static final long MIN_GAP_SECONDS = 300;
  static final double MAX_FREE = 0.20;

  private final ScheduledExecutorService timer;
  private long lastNanos;

  private HeapTrim(MemoryPoolMXBean oldGen) {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "heap-trim");
              t.setDaemon(true);
              return t;
            });
    lastNanos = System.nanoTime();
    timer.scheduleWithFixedDelay(
        () -> check(oldGen), CHECK_SECONDS, CHECK_SECONDS, TimeUnit.SECONDS);
  }

  /** Starts trimming when the JVM runs the serial or parallel collector; otherwise null. */
  static HeapTrim start() {
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP
          && (p.getName().equals("Tenured Gen") || p.getName().equals("PS Old Gen"))) {
        return new HeapTrim(p);
      }
    }
    return null;
  }

  /**
   * Whether to collect now: more of the committed old generation holds no object than {@link
   * #MAX_FREE} and than the JVM's current {@code MaxHeapFreeRatio} (in percent; a collection keeps
   * up to that much free, so below it there is nothing to give back: while queries run, the promql
   * stack's heap headroom raises it to 70), and the last trim was at least {@code minGapNanos} ago.
   */
  static boolean due(
      long committed, long used, int maxHeapFreeRatio, long nanosSinceLast, long minGapNanos) {
    double free = Math.max(MAX_FREE, maxHeapFreeRatio / 100.0);
    return committed > 0 && nanosSinceLast >= minGapNanos && committed - used > free * committed;
  }

  /** The JVM's {@code MaxHeapFreeRatio} now (a manageable flag: it changes at run time). */
  private static int maxHeapFreeRatio() {
    return Integer.parseInt(
        ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
            .getVMOption("MaxHeapFreeRatio")
            .getValue());
  }

  private void check(MemoryPoolMXBean oldGen) {
    try {
      MemoryUsage u = oldGen.getUsage();
      long now = System.nanoTime();
      if (due(
          u.getCommitted(),
          u.getUsed(),
          maxHeapFreeRatio(),
          now - lastNanos,
          MIN_GAP_SECONDS * 1_000_000_000L)) {
        lastNanos = now;
        log.debug(
            "old generation {} MB committed, {} MB used: collecting to give the rest back",
            u.getCommitted() >> 20,
            u.getUsed() >> 20);
        System.gc();
      }
    } catch (RuntimeException e) {
      log.warn("heap trim check failed", e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
