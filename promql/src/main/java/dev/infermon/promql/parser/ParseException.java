package dev.infermon.promql.parser;

/**
 * A PromQL query that does not parse or does not type-check. Carries where the problem starts
 * (1-based line and column), the offending token, and the message in Prometheus's wording ({@code
 * unexpected <op:*>}, {@code expected type range vector in call to function "rate", got instant
 * vector}, ...).
 *
 * <p>{@link #getMessage()} reads {@code <message> at line L, column C}; {@link
 * #prometheusMessage()} is the form Prometheus's HTTP API returns ({@code 1:17: parse error: ...});
 * {@link #snippet()} quotes the input line with a caret under the column. Columns count Unicode
 * code points (Prometheus counts bytes; the two agree on ASCII input).
 */
public final class ParseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String input;
  private final int offset;
  private final int endOffset;
  private final String detail;
  // Line and column are computed on first use (a parse may record thousands of errors and report
  // only the first), published together through one volatile array.
  private volatile int[] lineColumn;

  ParseException(String input, int offset, int endOffset, String detail) {
    super(detail, null, false, false);
    this.input = input;
    this.offset = Math.max(0, Math.min(offset, input.length()));
    this.endOffset = Math.max(this.offset, Math.min(endOffset, input.length()));
    this.detail = detail;
  }

  private int[] locate() {
    int[] lc = lineColumn;
    if (lc != null) {
      return lc;
    }
    int l = 1;
    int lineStart = 0;
    for (int i = 0; i < offset; i++) {
      if (input.charAt(i) == '\n') {
        l++;
        lineStart = i + 1;
      }
    }
    lc = new int[] {l, input.codePointCount(lineStart, offset) + 1};
    lineColumn = lc;
    return lc;
  }

  /** The message without position, in Prometheus's wording. */
  public String detail() {
    return detail;
  }

  /** The 1-based line where the problem starts. */
  public int line() {
    return locate()[0];
  }

  /** The 1-based column (in code points) where the problem starts. */
  public int column() {
    return locate()[1];
  }

  /** The 0-based offset in the input (in UTF-16 units) where the problem starts. */
  public int offset() {
    return offset;
  }

  /** The source text of the offending token or expression; empty at the end of the input. */
  public String token() {
    return input.substring(offset, endOffset);
  }

  /** The query that failed. */
  public String input() {
    return input;
  }

  @Override
  public String getMessage() {
    return detail + " at line " + line() + ", column " + column();
  }

  /** As Prometheus reports it: {@code 1:17: parse error: unexpected ...}. */
  public String prometheusMessage() {
    return line() + ":" + column() + ": parse error: " + detail;
  }

  /** The input line that holds the error, and under it a caret at the column. */
  public String snippet() {
    int lineStart = input.lastIndexOf('\n', offset - 1) + 1;
    int lineEnd = input.indexOf('\n', offset);
    if (lineEnd < 0) {
      lineEnd = input.length();
    }
    String text = input.substring(lineStart, lineEnd);
    StringBuilder caret = new StringBuilder(text.length() + 1);
    // Tabs stay tabs so that the caret lines up however the terminal expands them.
    for (int i = lineStart; i < offset; i += Character.charCount(input.codePointAt(i))) {
      caret.append(input.charAt(i) == '\t' ? '\t' : ' ');
    }
    return text + "\n" + caret.append('^');
  }
}
