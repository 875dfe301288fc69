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

  /** What the group's {@link AlertAnnotator} added at the last evaluation that reached it. */
  Labels added = Labels.EMPTY;

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

  /** The rule's annotations plus the annotator's under names the rule does not use. */
  Labels allAnnotations() {
    if (added.isEmpty()) {
      return annotations;
    }
    Labels.Builder b = added.toBuilder();
    annotations.forEach(b::set);
    return b.build();
  }

  AlertSnapshot snapshot() {
    return new AlertSnapshot(
        labels,
        allAnnotations(),
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
