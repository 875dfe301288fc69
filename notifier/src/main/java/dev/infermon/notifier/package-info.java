/**
 * Alert notification: {@link dev.infermon.notifier.Notifier} queues alerts and posts them in
 * batches to Alertmanagers (API v2) and webhooks, with Prometheus's relabeling, queueing and
 * batching rules; {@link dev.infermon.notifier.NotifierMetrics} receives its counters. Thread-safe.
 */
package dev.infermon.notifier;
