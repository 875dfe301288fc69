package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shares one String instance per distinct label name or value among the head's series, with
 * reference counts so strings of removed series are released (pod names churn with deployments).
 * Thread-safe.
 */
final class StringInterner {
  private static final class Entry {
    final String s;
    int refs; // guarded by the map's bin lock (compute)

    Entry(String s) {
      this.s = s;
    }
  }

  private final ConcurrentHashMap<String, Entry> map = new ConcurrentHashMap<>();

  /** The shared instance of {@code s}, counting one more reference. */
  String intern(String s) {
    return map.compute(
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
    map.computeIfPresent(s, (k, e) -> --e.refs == 0 ? null : e);
  }

  /** The labels with every string replaced by its shared instance (one reference each). */
  Labels intern(Labels labels) {
    String[] pairs = new String[labels.size() * 2];
    for (int i = 0; i < labels.size(); i++) {
      pairs[2 * i] = intern(labels.name(i));
      pairs[2 * i + 1] = intern(labels.value(i));
    }
    return Labels.fromSortedPairs(pairs);
  }

  void release(Labels labels) {
    for (int i = 0; i < labels.size(); i++) {
      release(labels.name(i));
      release(labels.value(i));
    }
  }

  /** Distinct strings held. */
  int size() {
    return map.size();
  }
}
