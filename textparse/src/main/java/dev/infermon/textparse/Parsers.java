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
   * Guesses the format of a page with no Content-Type (a file, standard input): OpenMetrics when
   * its last line is {@code # EOF}, or a line is a {@code # UNIT} line or a {@code # TYPE} line
   * naming a type only OpenMetrics has ({@code info}, {@code stateset}, {@code gaugehistogram},
   * {@code unknown}); the text format otherwise. Reads at most the first {@code length} bytes.
   */
  public static Format sniff(byte[] body, int length) {
    Objects.checkFromIndexSize(0, length, body.length);
    int end = length;
    if (end > 0 && body[end - 1] == '\n') {
      end--;
    }
    if (endsWith(body, end, "# EOF")) {
      int before = end - 5;
      if (before == 0 || body[before - 1] == '\n') {
        return Format.OPENMETRICS;
      }
    }
    int ls = 0;
    while (ls < length) {
      int le = ls;
      while (le < length && body[le] != '\n') {
        le++;
      }
      if (startsWith(body, ls, le, "# UNIT ")) {
        return Format.OPENMETRICS;
      }
      if (startsWith(body, ls, le, "# TYPE ")) {
        int t = le;
        while (t > ls && body[t - 1] != ' ') {
          t--;
        }
        String type = new String(body, t, le - t, java.nio.charset.StandardCharsets.US_ASCII);
        if (type.equals("info")
            || type.equals("stateset")
            || type.equals("gaugehistogram")
            || type.equals("unknown")) {
          return Format.OPENMETRICS;
        }
      }
      ls = le + 1;
    }
    return Format.TEXT;
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
