package dev.infermon.server.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Process-level hooks of a running {@link Infermon}. */
public final class Lifecycle {
  private static final Logger log = LoggerFactory.getLogger(Lifecycle.class);

  private Lifecycle() {}

  /**
   * Reloads the configuration on SIGHUP, as Prometheus does; a refused file is logged.
   *
   * @return false when SIGHUP cannot reach the process (a warning says why and what to use)
   */
  public static boolean reloadOnHangup(Infermon infermon) {
    return Signals.onHangup(
        () -> {
          try {
            infermon.reload();
          } catch (Exception e) {
            log.error("reload refused, the running configuration stays: {}", e.getMessage());
          }
        });
  }
}
