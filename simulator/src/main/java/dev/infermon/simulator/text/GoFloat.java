package dev.infermon.simulator.text;

import java.math.BigDecimal;

/**
 * Formats a double as Go's {@code strconv.FormatFloat(f, 'g', -1, 64)} does, which is how
 * client_golang's text format writes values and {@code le} bounds: the shortest digits that read
 * back, plain when the decimal exponent is in [-4, 6) ({@code 0.005}, {@code 3600}, an integral
 * value without a fraction), else with an exponent of at least two digits ({@code 1e+06}, {@code
 * 2.4576e+07}): strconv/ftoa.go decides {@code %e} against a precision of 6 when the digits are the
 * shortest. Infinities are {@code +Inf}/{@code -Inf}.
 */
public final class GoFloat {
  private GoFloat() {}

  /** The text Go's {@code FormatFloat(d, 'g', -1, 64)} gives {@code d}. */
  public static String format(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "+Inf" : "-Inf";
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0" : "0";
    }
    BigDecimal b = new BigDecimal(Double.toString(d)).stripTrailingZeros();
    int exp = b.precision() - b.scale() - 1;
    if (exp < -4 || exp >= 6) {
      String digits = b.unscaledValue().abs().toString();
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      String e = Integer.toString(Math.abs(exp));
      return (d < 0 ? "-" : "")
          + mantissa
          + "e"
          + (exp < 0 ? "-" : "+")
          + (e.length() < 2 ? "0" : "")
          + e;
    }
    return b.toPlainString();
  }
}
