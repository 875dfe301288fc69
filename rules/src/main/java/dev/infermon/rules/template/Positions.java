package dev.infermon.rules.template;

/** Line and column of a byte offset, as Go's template errors count them. */
final class Positions {
  private Positions() {}

  /** 1-based line. */
  static int line(String s, int pos) {
    int line = 1;
    for (int k = 0; k < pos && k < s.length(); k++) {
      if (s.charAt(k) == '\n') {
        line++;
      }
    }
    return line;
  }

  /** 0-based offset within the line, as Go's {@code ErrorContext} prints it. */
  static int column(String s, int pos) {
    int nl = s.lastIndexOf('\n', Math.max(0, Math.min(pos, s.length()) - 1));
    return nl < 0 ? pos : pos - nl - 1;
  }
}
