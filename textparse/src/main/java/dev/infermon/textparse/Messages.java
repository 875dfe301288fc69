package dev.infermon.textparse;

import java.nio.charset.StandardCharsets;

/** Quoting of input excerpts in error messages. */
final class Messages {
  private static final int MAX_QUOTED = 48;

  private Messages() {}

  /**
   * {@code b[from, to)} as a double-quoted string with control characters and quotes escaped, cut
   * to a readable length.
   */
  static String quote(byte[] b, int from, int to) {
    boolean cut = false;
    if (to - from > MAX_QUOTED * 4) {
      to = from + MAX_QUOTED * 4;
      cut = true;
    }
    String s = new String(b, from, Math.max(0, to - from), StandardCharsets.UTF_8);
    return quote(s, cut);
  }

  static String quote(String s) {
    return quote(s, false);
  }

  private static String quote(String s, boolean cut) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    int n = 0;
    for (int i = 0; i < s.length(); i = s.offsetByCodePoints(i, 1)) {
      if (++n > MAX_QUOTED) {
        cut = true;
        break;
      }
      int c = s.codePointAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\t':
          sb.append("\\t");
          break;
        default:
          if (c < 0x20 || c == 0x7F) {
            sb.append(String.format("\\x%02x", c));
          } else {
            sb.appendCodePoint(c);
          }
      }
    }
    sb.append('"');
    if (cut) {
      sb.append("...");
    }
    return sb.toString();
  }

  /** The end of the token starting at {@code from}: the next blank, or the line's end. */
  static int tokenEnd(byte[] b, int from, int lineEnd) {
    int i = from;
    while (i < lineEnd && b[i] != ' ' && b[i] != '\t') {
      i++;
    }
    return i == from ? Math.min(from + 1, lineEnd) : i;
  }
}
