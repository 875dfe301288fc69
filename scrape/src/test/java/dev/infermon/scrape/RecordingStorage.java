package dev.infermon.scrape;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.storage.Appendable;
import dev.infermon.storage.Appender;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.TooFarInFutureException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A storage that records every committed sample and counts commits and rollbacks. Rejects a sample
 * older than its series' newest committed one (out of order), like a head. Thread-safe.
 */
final class RecordingStorage implements Appendable {
  record Sample(Labels labels, long t, double v) {
    boolean stale() {
      return StaleNaN.is(v);
    }
  }

  private final List<Sample> committed = new ArrayList<>();
  private final Map<Labels, Long> newest = new HashMap<>();
  private final Map<Labels, Labels> stored = new HashMap<>(); // its own copy of each label set
  private final List<Labels> appendedWith = new ArrayList<>(); // the instances append() was given
  private final List<String> metadataUpdates = new ArrayList<>(); // "name type help" per update
  private int commits;
  private int rollbacks;
  private long maxValidTime = Long.MAX_VALUE;

  /** Refuses samples after {@code t}, as a storage's future window does. */
  synchronized void refuseAfter(long t) {
    maxValidTime = t;
  }

  @Override
  public Appender appender() {
    return new Appender() {
      final List<Sample> pending = new ArrayList<>();
      final List<String> pendingMetadata = new ArrayList<>();

      @Override
      public void updateMetadata(Labels labels, Metadata m) {
        pendingMetadata.add(labels.metricName() + " " + m.type() + " " + m.help());
      }

      @Override
      public long append(long ref, Labels labels, long t, double v) {
        synchronized (RecordingStorage.this) {
          Long n = newest.get(labels);
          if (n != null && t < n) {
            throw new OutOfOrderSampleException(labels + " at " + t);
          }
          if (t > maxValidTime) {
            throw new TooFarInFutureException(labels + " at " + t + " after " + maxValidTime);
          }
        }
        pending.add(new Sample(labels, t, v));
        synchronized (RecordingStorage.this) {
          appendedWith.add(labels);
        }
        return labels.hash64() | 1;
      }

      @Override
      public Labels storedLabels(long ref, Labels labels) {
        synchronized (RecordingStorage.this) {
          return stored.computeIfAbsent(labels, l -> Labels.fromMap(l.toMap()));
        }
      }

      @Override
      public void commit() {
        synchronized (RecordingStorage.this) {
          committed.addAll(pending);
          metadataUpdates.addAll(pendingMetadata);
          for (Sample s : pending) {
            newest.merge(s.labels(), s.t(), Math::max);
          }
          commits++;
        }
      }

      @Override
      public void rollback() {
        synchronized (RecordingStorage.this) {
          rollbacks++;
        }
      }
    };
  }

  /** Committed metadata updates, each as "name TYPE help", in order. */
  synchronized List<String> metadataUpdates() {
    return List.copyOf(metadataUpdates);
  }

  /** The label-set instance that append() was given, in order (to check who holds which copy). */
  synchronized List<Labels> appendedWith() {
    return List.copyOf(appendedWith);
  }

  /** This storage's own instance of {@code labels}, or null if none was handed out. */
  synchronized Labels storedInstance(Labels labels) {
    return stored.get(labels);
  }

  synchronized List<Sample> samples() {
    return List.copyOf(committed);
  }

  synchronized List<Sample> samples(Predicate<Labels> filter) {
    return committed.stream().filter(s -> filter.test(s.labels())).collect(Collectors.toList());
  }

  /** The committed samples of one metric name. */
  List<Sample> metric(String name) {
    return samples(l -> l.metricName().equals(name));
  }

  /** The values of a report series (up, scrape_duration_seconds, ...) for a target instance. */
  List<Double> values(String name, String instance) {
    return samples(l -> l.metricName().equals(name) && l.get("instance").equals(instance)).stream()
        .map(Sample::v)
        .collect(Collectors.toList());
  }

  synchronized int commits() {
    return commits;
  }

  synchronized int rollbacks() {
    return rollbacks;
  }

  synchronized void clear() {
    committed.clear();
  }
}
