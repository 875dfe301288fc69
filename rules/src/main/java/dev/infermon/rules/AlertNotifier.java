package dev.infermon.rules;

import java.util.List;

/**
 * Where alerts go (Prometheus's {@code NotifyFunc}); the server adapts the notifier to it. Called
 * on rule-evaluation threads after each evaluation of an alerting rule with the alerts due for
 * (re)sending; must not block for long (queue and return). Thread-safe.
 */
@FunctionalInterface
public interface AlertNotifier {
  /** Drops everything. */
  AlertNotifier NONE = alerts -> {};

  void send(List<Notification> alerts);
}
