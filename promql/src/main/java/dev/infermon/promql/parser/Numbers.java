package dev.infermon.promql.parser;

import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Number literals as Prometheus reads them: first Go's {@code strconv.ParseInt(s, 0, 64)} (so
 * {@code 0x1f} is hex and {@code 0755} octal), then {@code strconv.ParseFloat} (exponents, {@code
 * Inf}, {@code NaN}, case-insensitive). Underscores may separate digits, as in Go.
 */
final class Numbers {
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?");
  private static final Pattern HEX_FLOAT =
      Pattern.compile("[+-]?0[xX](?:[0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)[pP][+-]?[0-9]+");

  private Numbers() {}

  /**
   * The value of a number token.
   *
   * @throws IllegalArgumentException with Go's message, for example {@code strconv.ParseFloat:
   *     parsing "1e999": value out of range}
   */
  static double parseLiteral(String text) {
    Long asInt = parseGoInt(text);
    if (asInt != null) {
      return asInt;
    }
    Double f = parseGoFloat(text);
    if (f == null) {
      throw new IllegalArgumentException(
          "strconv.ParseFloat: parsing " + GoText.quote(text) + ": invalid syntax");
    }
    if (f.isInfinite() && !isInfinityWord(text)) {
      throw new IllegalArgumentException(
          "strconv.ParseFloat: parsing " + GoText.quote(text) + ": value out of range");
    }
    return f;
  }

  /** Go's {@code ParseInt(s, 0, 64)}; null when that fails (syntax or range). */
  static Long parseGoInt(String s) {
    String body = s;
    boolean negative = false;
    if (!body.isEmpty() && (body.charAt(0) == '+' || body.charAt(0) == '-')) {
      negative = body.charAt(0) == '-';
      body = body.substring(1);
    }
    if (body.indexOf('_') >= 0) {
      if (!underscoreOk(body)) {
        return null;
      }
      body = body.replace("_", "");
    }
    int radix = 10;
    String digits = body;
    if (body.length() >= 2 && body.charAt(0) == '0') {
      char p = Character.toLowerCase(body.charAt(1));
      if (p == 'x' || p == 'o' || p == 'b') {
        radix = p == 'x' ? 16 : p == 'o' ? 8 : 2;
        digits = body.substring(2);
      } else {
        radix = 8;
        digits = body.substring(1);
      }
    }
    if (digits.isEmpty()) {
      return body.equals("0") ? 0L : null;
    }
    for (int i = 0; i < digits.length(); i++) {
      if (Character.digit(digits.charAt(i), radix) < 0) {
        return null;
      }
    }
    BigInteger v = new BigInteger(digits, radix);
    if (negative) {
      v = v.negate();
    }
    return v.bitLength() < 64 ? v.longValue() : null;
  }

  /**
   * Go's {@code ParseFloat(s, 64)}: decimal and hexadecimal floats, {@code Inf}, {@code Infinity},
   * {@code NaN} in any case, optional sign. Null on a syntax error; an infinity on overflow.
   */
  static Double parseGoFloat(String s) {
    String lower = s.toLowerCase(Locale.ROOT);
    String unsigned = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
    boolean negative = lower.startsWith("-");
    if (unsigned.equals("inf") || unsigned.equals("infinity")) {
      return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (lower.equals("nan")) {
      return Double.NaN;
    }
    String body = s;
    if (body.indexOf('_') >= 0) {
      if (!underscoreOk(body)) {
        return null;
      }
      body = body.replace("_", "");
    }
    if (DECIMAL.matcher(body).matches() || HEX_FLOAT.matcher(body).matches()) {
      return Double.parseDouble(body);
    }
    return null;
  }

  private static boolean isInfinityWord(String s) {
    String lower = s.toLowerCase(Locale.ROOT).replaceFirst("^[+-]", "");
    return lower.equals("inf") || lower.equals("infinity");
  }

  /** Go's {@code underscoreOK}: underscores only between digits or after a base prefix. */
  private static boolean underscoreOk(String s) {
    char saw = '^';
    int i = 0;
    if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
      s = s.substring(1);
    }
    boolean hex = false;
    if (s.length() >= 2 && s.charAt(0) == '0') {
      char p = Character.toLowerCase(s.charAt(1));
      if (p == 'b' || p == 'o' || p == 'x') {
        i = 2;
        saw = '0';
        hex = p == 'x';
      }
    }
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      char lc = Character.toLowerCase(c);
      if ((c >= '0' && c <= '9') || (hex && lc >= 'a' && lc <= 'f')) {
        saw = '0';
        continue;
      }
      if (c == '_') {
        if (saw != '0') {
          return false;
        }
        saw = '_';
        continue;
      }
      if (saw == '_') {
        return false;
      }
      saw = '!';
    }
    return saw != '_';
  }
}
