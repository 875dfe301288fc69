package dev.infermon.model.labels;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An immutable set of labels sorted by name, with unique names and non-empty values.
 *
 * <p>Stored as one array of alternating names and values, so a label set costs one object and one
 * array beyond its strings; {@link #hashCode()} and {@link #hash64()} are computed once. Instances
 * are thread-safe. Create them with {@link #of(String...)}, {@link #builder()} or {@link
 * #fromMap(Map)}; each validates its input and names the offending value.
 */
public final class Labels implements Comparable<Labels> {
  /** The label that carries the metric name. */
  public static final String METRIC_NAME = "__name__";

  /** The empty label set. */
  public static final Labels EMPTY = new Labels(new String[0]);

  private final String[] pairs; // name0, value0, name1, value1, ... sorted by name
  private final long hash64;

  private Labels(String[] pairs) {
    this.pairs = pairs;
    this.hash64 = computeHash(pairs);
  }

  /**
   * Labels from alternating names and values, in any order. Empty values are dropped.
   *
   * @throws IllegalArgumentException for an odd count, a null, or a duplicate name
   */
  public static Labels of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException(
          "labels need name/value pairs, got an odd count: " + namesAndValues.length);
    }
    Builder b = new Builder();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      String name = namesAndValues[i];
      if (name == null || namesAndValues[i + 1] == null) {
        throw new IllegalArgumentException("null label name or value at position " + i);
      }
      if (b.has(name)) {
        throw new IllegalArgumentException("duplicate label name: \"" + name + "\"");
      }
      b.set(name, namesAndValues[i + 1]);
    }
    return b.build();
  }

  /** Labels from a map (its order is irrelevant). Empty values are dropped. */
  public static Labels fromMap(Map<String, String> map) {
    Builder b = new Builder();
    map.forEach(b::set);
    return b.build();
  }

  /**
   * Wraps pairs that the caller guarantees are already sorted by name, unique and non-empty. The
   * array is owned by the result afterwards; the caller must not modify it. Used by parsers and
   * storage on hot paths where sorting was already done.
   *
   * @throws IllegalArgumentException if the pairs are not strictly sorted by name
   */
  public static Labels fromSortedPairs(String[] pairs) {
    if (pairs.length % 2 != 0) {
      throw new IllegalArgumentException("odd number of label strings: " + pairs.length);
    }
    for (int i = 2; i < pairs.length; i += 2) {
      if (pairs[i - 2].compareTo(pairs[i]) >= 0) {
        throw new IllegalArgumentException(
            "labels not strictly sorted: \"" + pairs[i - 2] + "\" before \"" + pairs[i] + "\"");
      }
    }
    return new Labels(pairs);
  }

  /** A builder that starts empty. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts with these labels. */
  public Builder toBuilder() {
    Builder b = new Builder();
    for (int i = 0; i < pairs.length; i += 2) {
      b.set(pairs[i], pairs[i + 1]);
    }
    return b;
  }

  /** Number of labels. */
  public int size() {
    return pairs.length / 2;
  }

  public boolean isEmpty() {
    return pairs.length == 0;
  }

  /** The i-th label name in sorted order. */
  public String name(int i) {
    return pairs[2 * i];
  }

  /** The i-th label value in sorted order. */
  public String value(int i) {
    return pairs[2 * i + 1];
  }

  /** The value of a label, or the empty string when absent (Prometheus semantics). */
  public String get(String name) {
    int i = indexOf(name);
    return i < 0 ? "" : pairs[2 * i + 1];
  }

  /** True when the label is present (with a non-empty value, since empty values do not exist). */
  public boolean has(String name) {
    return indexOf(name) >= 0;
  }

  /** The metric name ({@code __name__}), or the empty string. */
  public String metricName() {
    return get(METRIC_NAME);
  }

  private int indexOf(String name) {
    // Label sets are small: a linear scan beats binary search below ~16 labels and is branch-light.
    int n = pairs.length;
    if (n > 32) {
      int lo = 0;
      int hi = n / 2 - 1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        int c = pairs[2 * mid].compareTo(name);
        if (c == 0) {
          return mid;
        } else if (c < 0) {
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      return -1;
    }
    for (int i = 0; i < n; i += 2) {
      if (pairs[i].equals(name)) {
        return i / 2;
      }
    }
    return -1;
  }

  /** Calls the consumer with each name and value in sorted order. */
  public void forEach(BiConsumer<String, String> consumer) {
    for (int i = 0; i < pairs.length; i += 2) {
      consumer.accept(pairs[i], pairs[i + 1]);
    }
  }

  /** The label names in sorted order. */
  public List<String> names() {
    List<String> out = new ArrayList<>(size());
    for (int i = 0; i < pairs.length; i += 2) {
      out.add(pairs[i]);
    }
    return out;
  }

  /** A copy of the labels as a sorted map. */
  public Map<String, String> toMap() {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    forEach(m::put);
    return m;
  }

  /** These labels without the metric name. */
  public Labels withoutMetricName() {
    return has(METRIC_NAME) ? without(Set.of(METRIC_NAME)) : this;
  }

  /** These labels without the given names. */
  public Labels without(Collection<String> names) {
    int keep = 0;
    for (int i = 0; i < pairs.length; i += 2) {
      if (!names.contains(pairs[i])) {
        keep++;
      }
    }
    if (keep == size()) {
      return this;
    }
    String[] out = new String[keep * 2];
    int j = 0;
    for (int i = 0; i < pairs.length; i += 2) {
      if (!names.contains(pairs[i])) {
        out[j++] = pairs[i];
        out[j++] = pairs[i + 1];
      }
    }
    return new Labels(out);
  }

  /** Only the labels with the given names. */
  public Labels keepOnly(Collection<String> names) {
    int keep = 0;
    for (int i = 0; i < pairs.length; i += 2) {
      if (names.contains(pairs[i])) {
        keep++;
      }
    }
    if (keep == size()) {
      return this;
    }
    String[] out = new String[keep * 2];
    int j = 0;
    for (int i = 0; i < pairs.length; i += 2) {
      if (names.contains(pairs[i])) {
        out[j++] = pairs[i];
        out[j++] = pairs[i + 1];
      }
    }
    return new Labels(out);
  }

  /**
   * A 64-bit hash of the label set, stable across processes and versions of the JVM (it combines
   * {@link String#hashCode()}, whose algorithm Java specifies). Not cryptographic.
   */
  public long hash64() {
    return hash64;
  }

  private static long computeHash(String[] pairs) {
    long h = 0x9E3779B97F4A7C15L;
    for (String s : pairs) {
      h ^= s.hashCode() & 0xffffffffL;
      h *= 0xff51afd7ed558ccdL;
      h ^= h >>> 32;
    }
    h ^= pairs.length;
    h *= 0xc4ceb9fe1a85ec53L;
    return h ^ (h >>> 29);
  }

  @Override
  public int hashCode() {
    return (int) (hash64 ^ (hash64 >>> 32));
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Labels)) {
      return false;
    }
    Labels other = (Labels) o;
    return hash64 == other.hash64 && Arrays.equals(pairs, other.pairs);
  }

  /** Orders label sets as Prometheus does: label by label, name first, then value. */
  @Override
  public int compareTo(Labels o) {
    int n = Math.min(pairs.length, o.pairs.length);
    for (int i = 0; i < n; i++) {
      int c = pairs[i].compareTo(o.pairs[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(pairs.length, o.pairs.length);
  }

  /** Prometheus notation: {@code name{a="b", c="d"}}, or {@code {a="b"}} without a name. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    String name = metricName();
    sb.append(name).append('{');
    boolean first = true;
    for (int i = 0; i < pairs.length; i += 2) {
      if (pairs[i].equals(METRIC_NAME)) {
        continue;
      }
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(pairs[i]).append("=\"");
      escapeInto(sb, pairs[i + 1]);
      sb.append('"');
    }
    return sb.append('}').toString();
  }

  /** Appends a label value with {@code \}, {@code "} and newline escaped. */
  public static void escapeInto(StringBuilder sb, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\':
          sb.append("\\\\");
          break;
        case '"':
          sb.append("\\\"");
          break;
        case '\n':
          sb.append("\\n");
          break;
        default:
          sb.append(c);
      }
    }
  }

  /**
   * Builds label sets. Setting an empty value deletes the label. Not thread-safe; reusable after
   * {@link #reset()}.
   */
  public static final class Builder {
    private String[] names = new String[8];
    private String[] values = new String[8];
    private int size;

    private Builder() {}

    /** Sets a label; an empty value removes it. */
    public Builder set(String name, String value) {
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException("label name must not be empty");
      }
      if (value == null) {
        throw new IllegalArgumentException("null value for label \"" + name + "\"");
      }
      for (int i = 0; i < size; i++) {
        if (names[i].equals(name)) {
          if (value.isEmpty()) {
            del(name);
          } else {
            values[i] = value;
          }
          return this;
        }
      }
      if (value.isEmpty()) {
        return this;
      }
      if (size == names.length) {
        names = Arrays.copyOf(names, size * 2);
        values = Arrays.copyOf(values, size * 2);
      }
      names[size] = name;
      values[size] = value;
      size++;
      return this;
    }

    /** Removes a label if present. */
    public Builder del(String name) {
      for (int i = 0; i < size; i++) {
        if (names[i].equals(name)) {
          System.arraycopy(names, i + 1, names, i, size - i - 1);
          System.arraycopy(values, i + 1, values, i, size - i - 1);
          size--;
          names[size] = null;
          values[size] = null;
          return this;
        }
      }
      return this;
    }

    /** The current value of a label, or the empty string. */
    public String get(String name) {
      for (int i = 0; i < size; i++) {
        if (names[i].equals(name)) {
          return values[i];
        }
      }
      return "";
    }

    /** True if the label is set. */
    public boolean has(String name) {
      for (int i = 0; i < size; i++) {
        if (names[i].equals(name)) {
          return true;
        }
      }
      return false;
    }

    /** Clears the builder for reuse. */
    public Builder reset() {
      Arrays.fill(names, 0, size, null);
      Arrays.fill(values, 0, size, null);
      size = 0;
      return this;
    }

    /** The sorted, immutable label set. The builder stays usable. */
    public Labels build() {
      String[] pairs = new String[size * 2];
      Integer[] idx = new Integer[size];
      for (int i = 0; i < size; i++) {
        idx[i] = i;
      }
      Arrays.sort(idx, (a, b) -> names[a].compareTo(names[b]));
      for (int i = 0; i < size; i++) {
        pairs[2 * i] = names[idx[i]];
        pairs[2 * i + 1] = values[idx[i]];
      }
      return size == 0 ? EMPTY : new Labels(pairs);
    }
  }
}
