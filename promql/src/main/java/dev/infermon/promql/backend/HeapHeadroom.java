package dev.infermon.promql.backend;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Room in the heap while queries are evaluated, given back once they stop. {@code serve}'s launcher
 * keeps the heap within 5-10 % of its live data after a full collection ({@code
 * -XX:MinHeapFreeRatio=5 -XX:MaxHeapFreeRatio=10}: memory per series is a goal), which suits
 * scraping, whose garbage dies young; a dashboard load allocates hundreds of megabytes that live
 * for one query, and under those ratios each few percent of growth cost a full collection (287 of
 * them, 20 s of collection, for the first 100-pod load: docs/benchmarks.md). So while any
 * evaluation is in flight the ratios are the JVM's defaults (40-70 %), and {@link #IDLE_MS} after
 * the last one they are set back; the growth is given back by the next full collection (in {@code
 * serve}, its heap trim asks for one once the old generation holds more free space than the ratio
 * allows).
 *
 * <p>Acts only when the JVM was started with a tight heap ({@code MaxHeapFreeRatio} below {@link
 * #ROOMY_MAX}); a JVM started with its own settings ({@code INFERMON_JAVA_OPTS}, the defaults) is
 * left alone. Both flags are manageable (set at run time through the HotSpot diagnostic bean); the
 * JVM checks {@code MinHeapFreeRatio <= MaxHeapFreeRatio} on each set, so widening sets the maximum
 * first and restoring the minimum first.
 *
 * <p>Threading: thread-safe; {@link #enter} and {@link #exit} are called around each evaluation
 * from any thread and are cheap beside it. One per process ({@link #jvm()}): the flags are the
 * JVM's.
 */
final class HeapHeadroom {
  private static final Logger LOG = LoggerFactory.getLogger(HeapHeadroom.class);

  /** The JVM's default ratios, measured as enough for a dashboard load (docs/benchmarks.md). */
  static final int ROOMY_MIN = 40;

  static final int ROOMY_MAX = 70;

  /** How long after the last evaluation the tight ratios come back. */
  static final long IDLE_MS = 30_000;

  /** What the headroom reads and sets: the JVM's, or a test's. */
  interface Vm {
    /** The value of a manageable flag. */
    int flag(String name);

    /** Sets a manageable flag. */
    void setFlag(String name, int value);

    /** A JVM whose ratios are already roomy: the headroom is off. */
    Vm ROOMY =
        new Vm() {
          @Override
          public int flag(String name) {
            return name.startsWith("Max") ? ROOMY_MAX : ROOMY_MIN;
          }

          @Override
          public void setFlag(String name, int value) {}
        };
  }

  /** Runs the restore {@code delayMs} later; the returned handle cancels it. */
  interface Timer {
    ScheduledFuture<?> schedule(Runnable r, long delayMs);
  }

  private static volatile HeapHeadroom jvm;

  private final Vm vm;
  private final Timer timer;
  private final int tightMin;
  private final int tightMax;
  private final boolean active;
  private int inFlight;
  private boolean roomy;
  private ScheduledFuture<?> restore;

  HeapHeadroom(Vm vm, Timer timer) {
    this.vm = vm;
    this.timer = timer;
    this.tightMin = vm.flag("MinHeapFreeRatio");
    this.tightMax = vm.flag("MaxHeapFreeRatio");
    this.active = tightMax < ROOMY_MAX && tightMin < ROOMY_MIN;
  }

  /** This JVM's headroom, created on first use. */
  static HeapHeadroom jvm() {
    HeapHeadroom h = jvm;
    if (h == null) {
      synchronized (HeapHeadroom.class) {
        h = jvm;
        if (h == null) {
          ScheduledExecutorService s =
              Executors.newSingleThreadScheduledExecutor(
                  r -> {
                    Thread t = new Thread(r, "heap-headroom");
                    t.setDaemon(true);
                    return t;
                  });
          Timer timer = (r, ms) -> s.schedule(r, ms, TimeUnit.MILLISECONDS);
          try {
            h = new HeapHeadroom(new JvmFlags(), timer);
          } catch (RuntimeException e) {
            // not HotSpot, or the flags are not manageable here: leave the heap as configured
            LOG.debug("heap headroom off: {}", e.toString());
            h = new HeapHeadroom(Vm.ROOMY, timer);
          }
          jvm = h;
        }
      }
    }
    return h;
  }

  /** Whether this JVM's ratios are tight, so that the headroom changes them. */
  boolean active() {
    return active;
  }

  /** An evaluation starts: the heap may grow freely until the last one ends. */
  synchronized void enter() {
    if (!active) {
      return;
    }
    inFlight++;
    if (restore != null) {
      restore.cancel(false);
      restore = null;
    }
    if (!roomy) {
      vm.setFlag("MaxHeapFreeRatio", ROOMY_MAX);
      vm.setFlag("MinHeapFreeRatio", ROOMY_MIN);
      roomy = true;
    }
  }

  /** An evaluation ended (normally or not): {@link #IDLE_MS} after the last, the tight ratios. */
  synchronized void exit() {
    if (!active) {
      return;
    }
    if (--inFlight == 0 && roomy) {
      restore = timer.schedule(this::restoreIfIdle, IDLE_MS);
    }
  }

  private synchronized void restoreIfIdle() {
    if (inFlight == 0 && roomy) {
      vm.setFlag("MinHeapFreeRatio", tightMin);
      vm.setFlag("MaxHeapFreeRatio", tightMax);
      roomy = false;
      restore = null;
    }
  }

  /** The running JVM's flags through the HotSpot diagnostic bean. */
  static final class JvmFlags implements Vm {
    private final HotSpotDiagnosticMXBean bean =
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);

    @Override
    public int flag(String name) {
      return Integer.parseInt(bean.getVMOption(name).getValue());
    }

    @Override
    public void setFlag(String name, int value) {
      bean.setVMOption(name, Integer.toString(value));
    }
  }
}
