package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's components in order, as Prometheus's run group and its list of reloaders: {@link
 * #start} starts them in order (on a failure, those started are stopped in reverse), {@link #stop}
 * stops them in reverse, {@link #reload} prepares every component for the new configuration and
 * then applies the changes in order, logging how long each component took.
 *
 * <p>A reload that fails keeps the old configuration everywhere: refusals are collected from every
 * component and reported together; any other failure while preparing stops the reload; either way
 * the changes already prepared are aborted and none is applied. A change that fails while applying
 * (which a valid configuration should never make happen) is rolled back by applying the previous
 * configuration again to the components already changed, in reverse.
 *
 * <p>Threading: not thread-safe; its owner ({@link Infermon}) serializes the calls.
 */
final class RunGroup {
  private static final Logger log = LoggerFactory.getLogger(RunGroup.class);

  private final List<Component> components;
  private final List<Component> started = new ArrayList<>();

  RunGroup(List<Component> components) {
    this.components = List.copyOf(components);
  }

  /**
   * Starts every component in order with {@code cfg}.
   *
   * @throws IOException or a runtime exception of the component that failed, after the ones started
   *     before it were stopped in reverse
   */
  void start(Config cfg) throws IOException {
    for (Component c : components) {
      long t0 = System.nanoTime();
      try {
        c.start(cfg);
      } catch (IOException | RuntimeException e) {
        log.error("{} failed to start: {}", c.name(), e.getMessage());
        stop();
        throw e;
      }
      started.add(c);
      log.debug("{} started in {} ms", c.name(), millis(t0));
    }
  }

  /** Stops the started components in reverse order; idempotent. */
  void stop() {
    for (int i = started.size() - 1; i >= 0; i--) {
      Component c = started.get(i);
      try {
        c.stop();
      } catch (RuntimeException e) {
        log.warn("{} did not stop cleanly", c.name(), e);
      }
    }
    started.clear();
  }

  /**
   * Moves every component from {@code current} to {@code next}.
   *
   * @return the reload's timings, {@code "web=0.1ms scrape=3.2ms ..."}, for the log line
   * @throws ReloadException naming the component(s) that refused or failed; nothing changed then
   */
  String reload(Config current, Config next) throws ReloadException {
    List<Component.Change> changes = new ArrayList<>();
    long[] nanos = new long[started.size()];
    List<String> refused = new ArrayList<>();
    for (int i = 0; i < started.size(); i++) {
      Component c = started.get(i);
      long t0 = System.nanoTime();
      try {
        changes.add(c.prepare(current, next));
      } catch (Component.Refused e) {
        refused.add(c.name() + ": " + e.getMessage());
        changes.add(Component.Change.NONE);
      } catch (RuntimeException e) {
        abort(changes);
        throw new ReloadException(c.name() + ": " + message(e), e);
      }
      nanos[i] = System.nanoTime() - t0;
    }
    if (!refused.isEmpty()) {
      abort(changes);
      throw new ReloadException(String.join("; ", refused), null);
    }
    StringJoiner timings = new StringJoiner(" ");
    for (int i = 0; i < changes.size(); i++) {
      long t0 = System.nanoTime();
      try {
        changes.get(i).apply();
      } catch (RuntimeException e) {
        abort(changes.subList(i + 1, changes.size()));
        rollBack(i, next, current);
        throw new ReloadException(started.get(i).name() + ": " + message(e), e);
      }
      nanos[i] += System.nanoTime() - t0;
      timings.add(
          started.get(i).name() + "=" + String.format(Locale.ROOT, "%.1fms", nanos[i] / 1e6));
    }
    return timings.toString();
  }

  /** Applies {@code previous} again to components {@code [0, upTo]}, last first, best effort. */
  private void rollBack(int upTo, Config applied, Config previous) {
    for (int i = upTo; i >= 0; i--) {
      Component c = started.get(i);
      try {
        c.prepare(applied, previous).apply();
      } catch (Component.Refused | RuntimeException e) {
        log.error("{} could not return to the previous configuration: {}", c.name(), message(e));
      }
    }
  }

  private static void abort(List<Component.Change> changes) {
    for (int i = changes.size() - 1; i >= 0; i--) {
      try {
        changes.get(i).abort();
      } catch (RuntimeException e) {
        log.warn("aborting a prepared change failed", e);
      }
    }
  }

  private static String message(Exception e) {
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  private static String millis(long t0) {
    return String.format(Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e6);
  }
}
