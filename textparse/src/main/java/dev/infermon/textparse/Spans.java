package dev.infermon.textparse;

import java.util.Arrays;

/**
 * The label pairs of one sample (or exemplar) as offsets into the line buffer: no copies, reused
 * from line to line. Flags say whether a name was quoted or a part holds escapes, so that Strings
 * are only unescaped when they must be.
 */
final class Spans {
  static final int NAME_ESCAPED = 1;
  static final int VALUE_ESCAPED = 2;

  int count;
  int[] offsets = new int[4 * 16]; // per label: name start, name end, value start, value end
  int[] flags = new int[16];

  /** Code points of all names and values, unescaped (exemplar size rule). */
  int codePoints;

  void clear() {
    count = 0;
    codePoints = 0;
  }

  void add(int nameStart, int nameEnd, int valueStart, int valueEnd, int flag) {
    if (count == flags.length) {
      offsets = Arrays.copyOf(offsets, offsets.length * 2);
      flags = Arrays.copyOf(flags, flags.length * 2);
    }
    int k = 4 * count;
    offsets[k] = nameStart;
    offsets[k + 1] = nameEnd;
    offsets[k + 2] = valueStart;
    offsets[k + 3] = valueEnd;
    flags[count] = flag;
    count++;
  }

  int nameStart(int i) {
    return offsets[4 * i];
  }

  int nameEnd(int i) {
    return offsets[4 * i + 1];
  }

  int valueStart(int i) {
    return offsets[4 * i + 2];
  }

  int valueEnd(int i) {
    return offsets[4 * i + 3];
  }

  /** The index of the label whose raw name equals {@code name}, or -1. */
  int indexOf(byte[] b, byte[] name) {
    for (int i = 0; i < count; i++) {
      int s = nameStart(i);
      int e = nameEnd(i);
      if (e - s == name.length && Arrays.equals(b, s, e, name, 0, name.length)) {
        return i;
      }
    }
    return -1;
  }
}
