package dev.infermon.tsdb.fileutil;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's direct buffer pool as the JDK counts it: every {@code ByteBuffer.allocateDirect},
 * including the temporary buffers that channels cache per thread for heap-buffer I/O.
 */
public final class DirectMemory {
  /** I/O to measure. */
  @FunctionalInterface
  public interface Io {
    void run() throws Exception;
  }

  private DirectMemory() {}

  /**
   * Runs {@code io} on a new thread (whose buffer cache starts empty) and returns how many bytes of
   * direct buffers the pool holds more after it than before, measured while that thread, and so its
   * cache, is still alive.
   */
  public static long growthOnFreshThread(Io io) throws Exception {
    long[] grew = new long[1];
    Exception[] failed = new Exception[1];
    Thread t =
        new Thread(
            () -> {
              long before = used();
              try {
                io.run();
              } catch (Exception e) {
                failed[0] = e;
              }
              grew[0] = used() - before;
            },
            "direct-memory-probe");
    t.start();
    t.join();
    if (failed[0] != null) {
      throw failed[0];
    }
    return grew[0];
  }

  private static long used() {
    for (BufferPoolMXBean p : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (p.getName().equals("direct")) {
        return p.getMemoryUsed();
      }
    }
    throw new IllegalStateException("no direct buffer pool");
  }
}
