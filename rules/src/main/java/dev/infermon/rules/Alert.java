package dev.infermon.rules;

import dev.infermon.model.labels.Labels;

/**
 * The mutable state of one alert of an alerting rule (Prometheus's {@code rules.Alert}). Times are
 * milliseconds, 0 when unset. Guarded by its rule's lock.
 */
final class Alert {
  AlertState state = AlertState.PENDING;
  final Labels labels;
  Labels annotations;
  double value;
  long activeAt;
  long firedAt;
  long resolvedAt;
  long lastSentAt;
  long validUntil;
  long keepFiringSince;

  Alert(Labels labels, Labels annotations, double value, long activeAt) {
    this.labels = labels;
    this.annotations = annotations;
    this.value = value;
    this.activeAt = activeAt;
  }

  /** Prometheus's {@code needsSending}: never pending; resolved since last sent; or due again. */
  boolean needsSending(long ts, long resendDelayMs) {
    if (state == AlertState.PENDING) {
      return false;
    }
    if (resolvedAt > lastSentAt) {
      return true;
    }
    return lastSentAt + resendDelayMs < ts;
  }

  AlertSnapshot snapshot() {
    return new AlertSnapshot(
        labels,
        annotations,
        state,
        activeAt,
        firedAt,
        resolvedAt,
        keepFiringSince,
        value,
        lastSentAt,
        validUntil);
  }
}
