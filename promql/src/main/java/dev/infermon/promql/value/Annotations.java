package dev.infermon.promql.value;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A de-duplicated, insertion-ordered set of annotations (Prometheus de-duplicates by message).
 * Immutable.
 */
public final class Annotations {
  /** No annotations. */
  public static final Annotations NONE = new Annotations(List.of());

  private final List<Annotation> all;

  private Annotations(List<Annotation> all) {
    this.all = all;
  }

  /** Annotations from a collection, duplicates removed, order kept. */
  public static Annotations of(java.util.Collection<Annotation> annotations) {
    if (annotations.isEmpty()) {
      return NONE;
    }
    return new Annotations(
        Collections.unmodifiableList(new ArrayList<>(new LinkedHashSet<>(annotations))));
  }

  public List<Annotation> all() {
    return all;
  }

  public boolean isEmpty() {
    return all.isEmpty();
  }

  /** Messages of the warnings, in order. */
  public List<String> warnings() {
    return messages(Annotation.Severity.WARNING);
  }

  /** Messages of the infos, in order. */
  public List<String> infos() {
    return messages(Annotation.Severity.INFO);
  }

  private List<String> messages(Annotation.Severity severity) {
    List<String> out = new ArrayList<>();
    for (Annotation a : all) {
      if (a.severity() == severity) {
        out.add(a.message());
      }
    }
    return out;
  }

  /** A mutable collector used while a query runs. Not thread-safe. */
  public static final class Collector {
    private final Set<Annotation> set = new LinkedHashSet<>();

    public void add(Annotation a) {
      set.add(a);
    }

    public void addAll(Annotations other) {
      set.addAll(other.all);
    }

    public boolean isEmpty() {
      return set.isEmpty();
    }

    public Annotations build() {
      return Annotations.of(set);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Annotations && ((Annotations) o).all.equals(all);
  }

  @Override
  public int hashCode() {
    return all.hashCode();
  }

  @Override
  public String toString() {
    return all.toString();
  }
}
