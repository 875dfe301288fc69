package dev.infermon.promql.engine;

import java.util.Locale;

/** Go's {@code strconv.ParseFloat} for label values such as {@code le}. Stateless. */
final class GoParse {
  private GoParse() {}

  /**
   * Parses like Go: decimal and hex floats, {@code Inf}/{@code Infinity}/{@code NaN} in any case
   * with an optional sign; no surrounding spaces and no Java type suffixes.
   *
   * @throws NumberFormatException naming the input when it is not a float
   */
  static double parseFloat(String s) {
    if (s.isEmpty()) {
      throw new NumberFormatException("empty string");
    }
    String lower = s.toLowerCase(Locale.ROOT);
    String body = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
    boolean negative = lower.startsWith("-");
    if (body.equals("inf") || body.equals("infinity")) {
      return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (body.equals("nan")) {
      if (s.startsWith("+") || s.startsWith("-")) {
        throw new NumberFormatException("signed NaN: " + s);
      }
      return Double.NaN;
    }
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      boolean ok =
          (c >= '0' && c <= '9')
              || c == '.'
              || c == 'e'
              || c == '+'
              || c == '-'
              || c == 'x'
              || c == 'p'
              || (c >= 'a' && c <= 'f')
              || c == '_';
      if (!ok) {
        throw new NumberFormatException("not a float: " + s);
      }
    }
    if (body.indexOf('_') >= 0) {
      if (!body.startsWith("0x")) {
        throw new NumberFormatException("underscore in decimal float: " + s);
      }
      s = s.replace("_", "");
    }
    if (body.startsWith("0x") && body.indexOf('p') < 0) {
      throw new NumberFormatException("hex float without exponent: " + s);
    }
    if (!body.startsWith("0x")
        && body.chars().anyMatch(ch -> ch >= 'a' && ch <= 'f' && ch != 'e')) {
      throw new NumberFormatException("not a float: " + s);
    }
    return Double.parseDouble(s);
  }
}
