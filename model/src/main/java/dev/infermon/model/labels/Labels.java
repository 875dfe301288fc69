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
 * <p>Stored as two parallel arrays, names and values, so that label sets with the same names can
 * share one names array (the head keeps one per distinct names tuple; see {@link
 * #fromSortedNamesAndValues}); {@link #hashCode()} and {@link #hash64()} are computed once. Neither
 * array is ever modified after construction. Instances are thread-safe. Create them with {@link
 * #of(String...)}, {@link #builder()} or {@link #fromMap(Map)}; each validates its input and names
 * the offending value.
 */
public final class Labels implements Comparable<Labels> {
  /** The label that carries the metric name. */
  public static final String METRIC_NAME = "__name__";

  private static final String[] NO_STRINGS = new String[0];

  /** The empty label set. */
  public static final Labels EMPTY = new Labels(NO_STRINGS, NO_STRINGS);

  // Parallel, sorted by name. names may be shared with other instances: never write to either.
  private final String[] names;
  private final String[] values;
  private final long hash64;

  private Labels(String[] names, String[] values) {
    this.names = names;
    this.values = values;
    this.hash64 = computeHash(names, values);
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
   * Labels from alternating names and values that the caller guarantees are already sorted by name,
   * unique and non-empty. The array is copied into separate names and values arrays and not
   * retained. Callers that can produce the two arrays directly should use {@link
   * #fromSortedNamesAndValues} instead, which copies nothing.
   *
   * @throws IllegalArgumentException if the pairs are not strictly sorted by name
   */
  public static Labels fromSortedPairs(String[] pairs) {
    if (pairs.length % 2 != 0) {
      throw new IllegalArgumentException("odd number of label strings: " + pairs.length);
    }
    for (int i = 2; i < pairs.length; i += 2) {
      if (pairs[i - 2].compareTo(pairs[i]) >= 0) {
        throw notSorted(pairs[i - 2], pairs[i]);
      }
    }
    int n = pairs.length / 2;
    String[] names = new String[n];
    String[] values = new String[n];
    for (int i = 0; i < n; i++) {
      names[i] = pairs[2 * i];
      values[i] = pairs[2 * i + 1];
    }
    return new Labels(names, values);
  }

  /**
   * Labels from parallel arrays of names, strictly sorted, and their non-empty values. Both arrays
   * are owned by the result afterwards and must never be modified by anyone; the names array may
   * (and should) be shared by any number of label sets with the same names, which is how the head
   * stores one names array per distinct names tuple. Validation is one pass without allocation.
   *
   * @throws IllegalArgumentException if the lengths differ, a name or value is null or empty, or
   *     the names are not strictly sorted
   */
  public static Labels fromSortedNamesAndValues(String[] names, String[] values) {
    if (names.length != values.length) {
      throw new IllegalArgumentException(
          "names and values differ in length: "
              + names.length
              + " names, "
              + values.length
              + " values");
    }
    for (int i = 0; i < names.length; i++) {
      String name = names[i];
      if (name == null) {
        throw new IllegalArgumentException("null label name at index " + i);
      }
      if (i > 0 && names[i - 1].compareTo(name) >= 0) {
        throw notSorted(names[i - 1], name);
      }
      if (i == 0 && name.isEmpty()) { // strictly sorted names can be empty only at index 0
        throw new IllegalArgumentException("label name must not be empty");
      }
      String value = values[i];
      if (value == null || value.isEmpty()) {
        throw new IllegalArgumentException(
            (value == null ? "null" : "empty") + " value for label \"" + name + "\"");
      }
    }
    return new Labels(names, values);
  }

  private static IllegalArgumentException notSorted(String before, String after) {
    return new IllegalArgumentException(
        "labels not strictly sorted: \"" + before + "\" before \"" + after + "\"");
  }

  /**
   * True when both label sets use the same names array instance, as label sets interned by the head
   * with the same names do. Says nothing about equality; for memory accounting, tests and readers
   * that do work once per names tuple.
   */
  public boolean sharesNamesWith(Labels other) {
    return names == other.names;
  }

  /** A builder that starts empty. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts with these labels. */
  public Builder toBuilder() {
    return new Builder(names, values);
  }

  /** Number of labels. */
  public int size() {
    return names.length;
  }

  public boolean isEmpty() {
    return names.length == 0;
  }

  /** The i-th label name in sorted order. */
  public String name(int i) {
    return names[i];
  }

  /** The i-th label value in sorted order. */
  public String value(int i) {
    return values[i];
  }

  /** The value of a label, or the empty string when absent (Prometheus semantics). */
  public String get(String name) {
    int i = indexOf(name);
    return i < 0 ? "" : values[i];
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
    int n = names.length;
    if (n > 16) {
      int i = Arrays.binarySearch(names, name);
      return i < 0 ? -1 : i;
    }
    for (int i = 0; i < n; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** Calls the consumer with each name and value in sorted order. */
  public void forEach(BiConsumer<String, String> consumer) {
    for (int i = 0; i < names.length; i++) {
      consumer.accept(names[i], values[i]);
    }
  }

  /** The label names in sorted order. */
  public List<String> names() {
    return new ArrayList<>(Arrays.asList(names));
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
    return filter(names, false);
  }

  /** Only the labels with the given names. */
  public Labels keepOnly(Collection<String> names) {
    return filter(names, true);
  }

  private Labels filter(Collection<String> selected, boolean keepSelected) {
    int keep = 0;
    for (String name : names) {
      if (selected.contains(name) == keepSelected) {
        keep++;
      }
    }
    if (keep == size()) {
      return this;
    }
    String[] outNames = new String[keep];
    String[] outValues = new String[keep];
    int j = 0;
    for (int i = 0; i < names.length; i++) {
      if (selected.contains(names[i]) == keepSelected) {
        outNames[j] = names[i];
        outValues[j] = values[i];
        j++;
      }
    }
    return new Labels(outNames, outValues);
  }

  /**
   * A 64-bit hash of the label set, stable across processes and versions of the JVM (it combines
   * {@link String#hashCode()}, whose algorithm Java specifies). Not cryptographic.
   */
  public long hash64() {
    return hash64;
  }

  // Name, value, name, value...: the same value as when label sets were one array of pairs.
  private static long computeHash(String[] names, String[] values) {
    long h = 0x9E3779B97F4A7C15L;
    for (int i = 0; i < names.length; i++) {
      h = mix(h, names[i]);
      h = mix(h, values[i]);
    }
    h ^= 2L * names.length;
    h *= 0xc4ceb9fe1a85ec53L;
    return h ^ (h >>> 29);
  }

  private static long mix(long h, String s) {
    h ^= s.hashCode() & 0xffffffffL;
    h *= 0xff51afd7ed558ccdL;
    return h ^ (h >>> 32);
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
    // Arrays.equals returns at once for a shared names array.
    return hash64 == other.hash64
        && Arrays.equals(names, other.names)
        && Arrays.equals(values, other.values);
  }

  /** Orders label sets as Prometheus does: label by label, name first, then value. */
  @Override
  public int compareTo(Labels o) {
    int n = Math.min(names.length, o.names.length);
    for (int i = 0; i < n; i++) {
      int c = names[i].compareTo(o.names[i]);
      if (c != 0) {
        return c;
      }
      c = values[i].compareTo(o.values[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(names.length, o.names.length);
  }

  /** Prometheus notation: {@code name{a="b", c="d"}}, or {@code {a="b"}} without a name. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    String name = metricName();
    sb.append(name).append('{');
    boolean first = true;
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(METRIC_NAME)) {
        continue;
      }
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(names[i]).append("=\"");
      escapeInto(sb, values[i]);
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

    // From a label set: its names are unique, so no set() and its scan per label. An empty value
    // (fromSortedPairs trusts its caller) is skipped and an empty name rejected, as set() would.
    private Builder(String[] names, String[] values) {
      int capacity = Math.max(8, names.length);
      this.names = new String[capacity];
      this.values = new String[capacity];
      for (int i = 0; i < names.length; i++) {
        if (names[i].isEmpty()) {
          throw new IllegalArgumentException("label name must not be empty");
        }
        if (!values[i].isEmpty()) {
          this.names[size] = names[i];
          this.values[size] = values[i];
          size++;
        }
      }
    }

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
      if (size == 0) {
        return EMPTY;
      }
      // Sorts in place (the builder's order is not observable): an insertion sort, since label
      // sets are small and mostly sorted already (toBuilder() then a set() or two).
      for (int i = 1; i < size; i++) {
        String n = names[i];
        if (names[i - 1].compareTo(n) < 0) {
          continue;
        }
        String v = values[i];
        int j = i;
        while (j > 0 && names[j - 1].compareTo(n) > 0) {
          names[j] = names[j - 1];
          values[j] = values[j - 1];
          j--;
        }
        names[j] = n;
        values[j] = v;
      }
      return new Labels(Arrays.copyOf(names, size), Arrays.copyOf(values, size));
    }
  }
}
