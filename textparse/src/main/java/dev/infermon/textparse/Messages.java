package dev.infermon.textparse;

import dev.infermon.model.text.GoQuote;
import java.nio.charset.StandardCharsets;

/** Quoting of input excerpts in error messages: Go's {@code %q} ({@link GoQuote}), cut short. */
final class Messages {
  private static final int MAX_QUOTED = 48;

  private Messages() {}

  /**
   * {@code b[from, to)} as a double-quoted string with control characters and quotes escaped as Go
   * escapes them, cut to a readable length ({@code ...} after the quote when cut).
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
    if (s.codePointCount(0, s.length()) > MAX_QUOTED) {
      s = s.substring(0, s.offsetByCodePoints(0, MAX_QUOTED));
      cut = true;
    }
    String quoted = GoQuote.quote(s);
    return cut ? quoted + "..." : quoted;
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
