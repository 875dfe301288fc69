package dev.infermon.textparse;

/** UTF-8 checks over byte ranges, without decoding. */
final class Utf8 {
  private Utf8() {}

  /** The 1-based column of {@code pos} in a line starting at {@code lineStart}, in code points. */
  static int column(byte[] b, int lineStart, int pos) {
    int col = 1;
    for (int i = lineStart; i < pos; i++) {
      if ((b[i] & 0xC0) != 0x80) {
        col++;
      }
    }
    return col;
  }

  /** The number of code points in {@code b[from, to)} (valid UTF-8 assumed). */
  static int codePoints(byte[] b, int from, int to) {
    return column(b, from, to) - 1;
  }

  /**
   * The offset of the first byte of an invalid sequence in {@code b[from, to)}, or -1 when the
   * range is valid UTF-8 (shortest forms only, no surrogates, at most U+10FFFF).
   */
  static int invalidAt(byte[] b, int from, int to) {
    int i = from;
    while (i < to) {
      int c = b[i] & 0xFF;
      if (c < 0x80) {
        i++;
        continue;
      }
      int n;
      int min;
      if (c >= 0xC2 && c <= 0xDF) {
        n = 1;
        min = 0x80;
      } else if (c >= 0xE0 && c <= 0xEF) {
        n = 2;
        min = 0x800;
      } else if (c >= 0xF0 && c <= 0xF4) {
        n = 3;
        min = 0x10000;
      } else {
        return i;
      }
      int cp = c & (0x3F >> n);
      for (int k = 1; k <= n; k++) {
        if (i + k >= to) {
          return i;
        }
        int cc = b[i + k] & 0xFF;
        if ((cc & 0xC0) != 0x80) {
          return i;
        }
        cp = (cp << 6) | (cc & 0x3F);
      }
      if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return i;
      }
      i += n + 1;
    }
    return -1;
  }
}
