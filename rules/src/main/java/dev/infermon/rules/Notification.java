package dev.infermon.rules;

import dev.infermon.model.labels.Labels;

/**
 * An alert as it leaves the rules for the notifier (Prometheus's {@code notifier.Alert}): {@code
 * startsAt} is when it fired; {@code endsAt} is when it resolved, or, while firing, the send time
 * plus 4 × max(resend delay, group interval) so that Alertmanager resolves it by itself if infermon
 * stops sending. Times are milliseconds.
 */
public record Notification(
    Labels labels, Labels annotations, long startsAtMs, long endsAtMs, String generatorUrl) {}
