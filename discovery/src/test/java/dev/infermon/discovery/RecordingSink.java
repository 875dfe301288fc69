package dev.infermon.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** A sink keeping the latest group per source, as the discovery manager does. Thread-safe. */
public final class RecordingSink implements TargetSink {
  private final Map<String, TargetGroup> groups = new LinkedHashMap<>();
  private int updates;

  @Override
  public synchronized void update(List<TargetGroup> changed) {
    for (TargetGroup g : changed) {
      if (g.isEmpty()) {
        groups.remove(g.source());
      } else {
        groups.put(g.source(), g);
      }
    }
    updates++;
    notifyAll();
  }

  public synchronized Map<String, TargetGroup> groups() {
    return new LinkedHashMap<>(groups);
  }

  public synchronized int updates() {
    return updates;
  }

  /** Waits (at most 15 s) until the groups satisfy {@code cond}. */
  public synchronized Map<String, TargetGroup> await(
      String what, Predicate<Map<String, TargetGroup>> cond) {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (!cond.test(groups)) {
      long left = deadline - System.nanoTime();
      assertThat(left).as("waiting for " + what + "; have " + groups.keySet()).isPositive();
      try {
        wait(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
    return new LinkedHashMap<>(groups);
  }
}
