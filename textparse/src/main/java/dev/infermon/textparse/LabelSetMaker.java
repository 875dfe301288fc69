package dev.infermon.textparse;

import dev.infermon.model.labels.Labels;
import java.util.Arrays;

/**
 * Makes a parser's label sets through reused scratch arrays, and hands out the previous label set's
 * names array again when the names are the same (consecutive series of a family usually have the
 * same names), so a parsed label set usually costs one exact-size values array. Names arrays given
 * to {@link Labels} are never written again. Not thread-safe: one per parser and kind of label set
 * (series, exemplar), since alternating kinds would defeat the reuse.
 */
final class LabelSetMaker {
  private String[] names = new String[16];
  private String[] values = new String[16];
  private int size;
  private String[] lastNames = new String[0];

  /** Starts a label set of at most {@code capacity} labels. */
  void start(int capacity) {
    if (names.length < capacity) {
      int n = Math.max(capacity, 2 * names.length);
      names = new String[n];
      values = new String[n];
    }
    size = 0;
  }

  /** Adds a label; names are kept sorted (duplicates are left to {@link #make()} to reject). */
  void add(String name, String value) {
    // Insertion sort: label sets are small and mostly written sorted already.
    int j = size;
    while (j > 0 && names[j - 1].compareTo(name) > 0) {
      names[j] = names[j - 1];
      values[j] = values[j - 1];
      j--;
    }
    names[j] = name;
    values[j] = value;
    size++;
  }

  /**
   * The label set added since {@link #start}.
   *
   * @throws IllegalArgumentException for a duplicate name
   */
  Labels make() {
    String[] n = lastNames;
    if (n.length != size || !Arrays.equals(names, 0, size, n, 0, size)) {
      n = Arrays.copyOf(names, size);
      lastNames = n;
    }
    return Labels.fromSortedNamesAndValues(n, Arrays.copyOf(values, size));
  }
}
