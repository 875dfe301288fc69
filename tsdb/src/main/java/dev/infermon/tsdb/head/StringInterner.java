package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shares one String instance per distinct label name or value among the head's series, and one
 * names array per distinct tuple of label names (all series of a metric family from one target have
 * the same names), with reference counts so that what removed series used is released (pod names
 * churn with deployments). Thread-safe.
 */
final class StringInterner {
  private static final class Entry {
    final String s;
    int refs; // guarded by the map's bin lock (compute)

    Entry(String s) {
      this.s = s;
    }
  }

  /**
   * A names tuple, compared by content; the stored one's array is what the series' labels share. A
   * stored tuple holds one reference on each of its strings, whatever its own count.
   */
  private static final class Names {
    final String[] names;
    final int hash;
    int refs; // guarded by the map's bin lock (compute)

    Names(Labels labels) {
      names = new String[labels.size()];
      for (int i = 0; i < names.length; i++) {
        names[i] = labels.name(i);
      }
      hash = Arrays.hashCode(names);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Names other && Arrays.equals(names, other.names);
    }
  }

  private final ConcurrentHashMap<String, Entry> strings = new ConcurrentHashMap<>();
  // Lock order: a bin of tuples, then a bin of strings (never the reverse).
  private final ConcurrentHashMap<Names, Names> tuples = new ConcurrentHashMap<>();

  /** The shared instance of {@code s}, counting one more reference. */
  String intern(String s) {
    return strings.compute(
            s,
            (k, e) -> {
              Entry r = e == null ? new Entry(k) : e;
              r.refs++;
              return r;
            })
        .s;
  }

  /** Drops one reference; the string is forgotten when none is left. */
  void release(String s) {
    strings.computeIfPresent(s, (k, e) -> --e.refs == 0 ? null : e);
  }

  /**
   * The labels with the shared names array of their names tuple and every value replaced by its
   * shared instance, counting one reference on the tuple and on each value. Release with {@link
   * #release(Labels)}.
   */
  Labels intern(Labels labels) {
    String[] values = new String[labels.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = intern(labels.value(i));
    }
    String[] names =
        tuples.compute(
                new Names(labels),
                (k, e) -> {
                  Names r = e;
                  if (r == null) {
                    // The new key is not visible to other threads before compute returns.
                    r = k;
                    for (int i = 0; i < r.names.length; i++) {
                      r.names[i] = intern(r.names[i]);
                    }
                  }
                  r.refs++;
                  return r;
                })
            .names;
    return Labels.fromSortedNamesAndValues(names, values);
  }

  /** Drops the references that {@link #intern(Labels)} counted for labels it returned. */
  void release(Labels labels) {
    for (int i = 0; i < labels.size(); i++) {
      release(labels.value(i));
    }
    tuples.computeIfPresent(
        new Names(labels),
        (k, e) -> {
          if (--e.refs > 0) {
            return e;
          }
          for (String name : e.names) {
            release(name);
          }
          return null;
        });
  }

  /** Distinct strings held. */
  int size() {
    return strings.size();
  }

  /** Distinct names tuples held. */
  int namesTuples() {
    return tuples.size();
  }
}
