package dev.infermon.textparse;

import java.util.Locale;
import java.util.Objects;

/** Chooses the parser for a page: by the response's Content-Type, or by looking at the page. */
public final class Parsers {
  private Parsers() {}

  /**
   * The format a Content-Type names: {@code application/openmetrics-text} (any version) is
   * OpenMetrics; everything else is the text format. That includes {@code text/plain} (0.0.4 and
   * 1.0.0), a missing or empty header (null is allowed), an unparsable one, and any other type
   * (protobuf, JSON, HTML). This is Prometheus 2's fallback: it parses what it does not recognise
   * as text, and the text parser then reports the first line that is not exposition.
   */
  public static Format formatFor(String contentType) {
    if (contentType == null) {
      return Format.TEXT;
    }
    int semi = contentType.indexOf(';');
    String media = (semi < 0 ? contentType : contentType.substring(0, semi)).trim();
    return media.toLowerCase(Locale.ROOT).equals("application/openmetrics-text")
        ? Format.OPENMETRICS
        : Format.TEXT;
  }

  /** Parsers for the format {@link #formatFor(String)} chooses. */
  public static ParserFactory forContentType(String contentType, ParserOptions options) {
    return forFormat(formatFor(contentType), options);
  }

  /** Parsers for a known format. */
  public static ParserFactory forFormat(Format format, ParserOptions options) {
    return new ParserFactory(
        Objects.requireNonNull(format, "format"), Objects.requireNonNull(options, "options"));
  }

  /**
   * Guesses the format of a page that came without a Content-Type (a file, standard input), from
   * its first {@code length} bytes:
   *
   * <ol>
   *   <li>OpenMetrics if a line is a {@code # UNIT} line or a {@code # TYPE} line naming a type
   *       only OpenMetrics has ({@code info}, {@code stateset}, {@code gaugehistogram}, {@code
   *       unknown});
   *   <li>otherwise the text format if a line is blank, a comment other than HELP, TYPE, UNIT or
   *       EOF, a {@code # TYPE} line with {@code untyped}, or a counter's {@code # TYPE} line whose
   *       name ends in {@code _total} (OpenMetrics names the family without it);
   *   <li>otherwise OpenMetrics if the last line is {@code # EOF}, which OpenMetrics requires;
   *   <li>otherwise the text format.
   * </ol>
   */
  public static Format sniff(byte[] body, int length) {
    Objects.checkFromIndexSize(0, length, body.length);
    boolean textSignal = false;
    int ls = 0;
    int lastStart = 0;
    int lastEnd = 0;
    while (ls < length) {
      int le = ls;
      while (le < length && body[le] != '\n') {
        le++;
      }
      String type = typeOf(body, ls, le);
      if (startsWith(body, ls, le, "# UNIT ")
          || type.equals("info")
          || type.equals("stateset")
          || type.equals("gaugehistogram")
          || type.equals("unknown")) {
        return Format.OPENMETRICS;
      }
      if (le == ls
          || type.equals("untyped")
          || (type.equals("counter") && nameEndsWithTotal(body, ls, le))
          || (body[ls] == '#'
              && !startsWith(body, ls, le, "# HELP ")
              && !startsWith(body, ls, le, "# TYPE ")
              && !startsWith(body, ls, le, "# EOF"))) {
        textSignal = true;
      }
      if (le > ls) {
        lastStart = ls;
        lastEnd = le;
      }
      ls = le + 1;
    }
    if (textSignal) {
      return Format.TEXT;
    }
    boolean eof = lastEnd - lastStart == 5 && startsWith(body, lastStart, lastEnd, "# EOF");
    return eof ? Format.OPENMETRICS : Format.TEXT;
  }

  /** The last word of a {@code # TYPE} line, or "". */
  private static String typeOf(byte[] b, int ls, int le) {
    if (!startsWith(b, ls, le, "# TYPE ")) {
      return "";
    }
    int t = le;
    while (t > ls && b[t - 1] != ' ') {
      t--;
    }
    return new String(b, t, le - t, java.nio.charset.StandardCharsets.US_ASCII);
  }

  private static boolean nameEndsWithTotal(byte[] b, int ls, int le) {
    int t = le;
    while (t > ls && b[t - 1] != ' ') {
      t--;
    }
    return t - 1 - (ls + 7) > 6 && endsWith(b, t - 1, "_total");
  }

  private static boolean endsWith(byte[] b, int end, String s) {
    if (end < s.length()) {
      return false;
    }
    for (int k = 0; k < s.length(); k++) {
      if (b[end - s.length() + k] != s.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static boolean startsWith(byte[] b, int from, int to, String s) {
    if (to - from < s.length()) {
      return false;
    }
    for (int k = 0; k < s.length(); k++) {
      if (b[from + k] != s.charAt(k)) {
        return false;
      }
    }
    return true;
  }
}
