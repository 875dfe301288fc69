package dev.infermon.tsdb.head;

import dev.infermon.model.metadata.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Metadata per metric family, each distinct value listed once in arrival order. Thread-safe: lists
 * are replaced, never changed.
 */
final class HeadMetadata {
  private final ConcurrentHashMap<String, List<Metadata>> byFamily = new ConcurrentHashMap<>();

  void add(String family, Metadata m) {
    byFamily.compute(
        family,
        (k, old) -> {
          if (old == null) {
            return List.of(m);
          }
          if (old.contains(m)) {
            return old;
          }
          List<Metadata> l = new ArrayList<>(old);
          l.add(m);
          return List.copyOf(l);
        });
  }

  /** Sorted by family; only {@code metric}'s when it is not null. */
  Map<String, List<Metadata>> get(String metric) {
    if (metric != null) {
      List<Metadata> l = byFamily.get(metric);
      return l == null ? Map.of() : Map.of(metric, l);
    }
    return new TreeMap<>(byFamily);
  }
}
