package dev.infermon.simulator;

import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Advances a fleet with the wall clock, a few times a second, on one daemon thread. Closing stops
 * it. Thread-safe.
 */
public final class Ticker implements AutoCloseable {
  private final ScheduledExecutorService executor;

  private Ticker(ScheduledExecutorService executor) {
    this.executor = executor;
  }

  /** Starts advancing {@code fleet} to {@code clock}'s time every {@code periodMillis}. */
  public static Ticker start(Fleet fleet, Clock clock, long periodMillis) {
    if (periodMillis <= 0) {
      throw new IllegalArgumentException("periodMillis must be positive, got " + periodMillis);
    }
    ScheduledExecutorService ex =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "fleet-ticker");
              t.setDaemon(true);
              return t;
            });
    ex.scheduleAtFixedRate(
        () -> fleet.advanceTo(clock.millis()), 0, periodMillis, TimeUnit.MILLISECONDS);
    return new Ticker(ex);
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
