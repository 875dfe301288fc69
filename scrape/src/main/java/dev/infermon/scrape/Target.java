package dev.infermon.scrape;

import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.model.labels.Labels;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One endpoint to scrape: its identity (labels after target relabeling, URL, interval, timeout) is
 * immutable; its health is updated by its loop after every scrape.
 *
 * <p>Threading: identity fields are final; health is guarded by {@code this}, so readers (the
 * targets API) see a consistent report.
 */
final class Target {
  private final String pool;
  private final Labels labels;
  private final Labels publicLabels;
  private final String url;
  private final Duration interval;
  private final Duration timeout;
  private final long hash;
  private volatile Labels discoveredLabels;

  private TargetHealth health = TargetHealth.UNKNOWN;
  private String lastError = "";
  private String lastWarning = "";
  private Instant lastScrape;
  private Duration lastDuration = Duration.ZERO;

  Target(
      String pool,
      Labels labels,
      Labels discoveredLabels,
      String url,
      Duration interval,
      Duration timeout) {
    this.pool = Objects.requireNonNull(pool);
    this.labels = Objects.requireNonNull(labels);
    this.discoveredLabels = Objects.requireNonNull(discoveredLabels);
    this.url = Objects.requireNonNull(url);
    this.interval = Objects.requireNonNull(interval);
    this.timeout = Objects.requireNonNull(timeout);
    Labels.Builder b = Labels.builder();
    for (int i = 0; i < labels.size(); i++) {
      if (!labels.name(i).startsWith(DiscoveryLabels.RESERVED_PREFIX)) {
        b.set(labels.name(i), labels.value(i));
      }
    }
    this.publicLabels = b.build();
    this.hash = fnv64a(labels.toString() + "\u0000" + url);
  }

  /** Every label after relabeling, {@code __} labels included. */
  Labels allLabels() {
    return labels;
  }

  /** The labels attached to every scraped series: those not starting with {@code __}. */
  Labels labels() {
    return publicLabels;
  }

  Labels discoveredLabels() {
    return discoveredLabels;
  }

  void discoveredLabels(Labels l) {
    discoveredLabels = l;
  }

  String pool() {
    return pool;
  }

  String url() {
    return url;
  }

  Duration interval() {
    return interval;
  }

  Duration timeout() {
    return timeout;
  }

  /** Identifies the target within its pool: labels and URL, as Prometheus's {@code Target.hash}. */
  long hash() {
    return hash;
  }

  /**
   * How long to wait before the first scrape so that this target's scrapes fall at a fixed phase of
   * the interval, spread over targets by their hash: Prometheus's {@code Target.offset}.
   */
  long offsetNanos(long nowNanos, long seed) {
    long iv = interval.toNanos();
    long base = iv - Math.floorMod(nowNanos, iv);
    long offset = Long.remainderUnsigned(hash ^ seed, iv);
    long next = base + offset;
    if (next > iv) {
      next -= iv;
    }
    return next;
  }

  /**
   * The outcome of a scrape: {@code error} null when it succeeded; {@code warning} null when every
   * sample was stored, else what was dropped (the target stays up).
   */
  synchronized void report(Instant start, Duration duration, String error, String warning) {
    health = error == null ? TargetHealth.UP : TargetHealth.DOWN;
    lastError = error == null ? "" : error;
    lastWarning = warning == null ? "" : warning;
    lastScrape = start;
    lastDuration = duration;
  }

  synchronized TargetHealth health() {
    return health;
  }

  synchronized String lastError() {
    return lastError;
  }

  synchronized TargetStatus status() {
    return new TargetStatus(
        discoveredLabels,
        publicLabels,
        pool,
        url,
        url,
        lastError,
        lastWarning,
        lastScrape,
        lastDuration,
        health,
        interval,
        timeout);
  }

  static long fnv64a(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= (b & 0xff);
      h *= 0x100000001b3L;
    }
    return h;
  }

  @Override
  public String toString() {
    return url;
  }
}
