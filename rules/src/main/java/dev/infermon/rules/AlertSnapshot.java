package dev.infermon.rules;

import dev.infermon.model.labels.Labels;

/**
 * An immutable copy of one alert.
 *
 * @param activeAt when the expression first returned it (ms)
 * @param firedAt when it started firing, 0 if it has not
 * @param resolvedAt when it resolved, 0 while active
 * @param keepFiringSince when {@code keep_firing_for} started holding it, 0 if not
 */
public record AlertSnapshot(
    Labels labels,
    Labels annotations,
    AlertState state,
    long activeAt,
    long firedAt,
    long resolvedAt,
    long keepFiringSince,
    double value,
    long lastSentAt,
    long validUntil) {}
