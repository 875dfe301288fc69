package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import java.io.IOException;

/**
 * One part of the running process: an actor of Prometheus's run group with its named reloader
 * ({@code cmd/prometheus/main.go}). The {@link RunGroup} starts components in order, stops them in
 * reverse, and reloads them in order in two phases: every component {@linkplain #prepare prepares}
 * the new configuration (the checks and the work that can fail), and only when all have is each
 * {@linkplain Change#apply change applied}. So a reload that fails leaves the running configuration
 * whole.
 *
 * <p>Threading: the run group calls {@link #start}, {@link #stop}, {@link #prepare} and the
 * changes' methods one at a time, from the thread that starts, reloads or stops the process. What a
 * component hands to others (its storage, its query backend) may be read from any thread once it
 * started, and is null before and after.
 *
 * <p>Errors: {@link #start} throws to abort start-up (the group stops what started before, in
 * reverse); {@link #stop} does not throw (it logs what went wrong); {@link #prepare} throws {@link
 * Refused} for a setting that cannot change while running, or any exception for a configuration the
 * component cannot take, and changes nothing either way.
 */
interface Component {
  /** The name logs, reload timings and errors use ({@code web}, {@code scrape}, ...). */
  String name();

  /**
   * Starts with the configuration loaded at start-up.
   *
   * @throws IOException when a resource cannot be had (a port, the storage directory)
   */
  void start(Config cfg) throws IOException;

  /** Stops and releases what {@link #start} took; only called after a successful start. */
  void stop();

  /**
   * Prepares running with {@code next} instead of {@code current}: checks what cannot change at run
   * time, and does the work that can fail (reading rule files, validating, building what the change
   * swaps in). Nothing of the running component changes until the change is applied.
   *
   * @return the change; {@link Change#NONE} when nothing of this component's changed
   * @throws Refused when a setting this component reads cannot change while running
   */
  Change prepare(Config current, Config next) throws Refused;

  /** A prepared change of one component. */
  interface Change {
    /** Nothing to do. */
    Change NONE = () -> {};

    /** Makes the change take effect; does nothing that can fail on a valid configuration. */
    void apply();

    /** Releases what preparing built, when another component's preparation failed. */
    default void abort() {}
  }

  /** A setting that cannot change while infermon runs; the message names its key. */
  final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * @param key the setting's key path, as in the configuration file ({@code web.listen_address})
     * @param why what keeps it from changing
     */
    Refused(String key, String why) {
      super(key + " cannot change while infermon runs (" + why + "); restart to apply it");
    }
  }

  /** A component without configuration of its own: {@code start} and {@code stop} only. */
  static Component of(String name, Starter start, Runnable stop) {
    return new Component() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public void start(Config cfg) throws IOException {
        start.start(cfg);
      }

      @Override
      public void stop() {
        stop.run();
      }

      @Override
      public Change prepare(Config current, Config next) {
        return Change.NONE;
      }
    };
  }

  /** What {@link #of} starts. */
  @FunctionalInterface
  interface Starter {
    void start(Config cfg) throws IOException;
  }
}
