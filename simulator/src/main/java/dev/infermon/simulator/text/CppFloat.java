package dev.infermon.simulator.text;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Formats a double as a C++ {@code std::ostream} does by default ({@code %g} with precision 6),
 * which is how llama-server writes every {@code /metrics} value: six significant digits, trailing
 * zeros dropped, an exponent of at least two digits below 1e-4 and from 1e6 ({@code 2903.63},
 * {@code 1}, {@code 1.23457e+06}). So a counter past a million advances in steps of its sixth
 * digit. glibc prints NaN as {@code nan} or {@code -nan} and infinities as {@code inf}.
 */
public final class CppFloat {
  private static final int PRECISION = 6;

  private CppFloat() {}

  /** The text {@code std::cout << d} writes. */
  public static String format(double d) {
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0" : "0";
    }
    BigDecimal rounded =
        new BigDecimal(d).round(new MathContext(PRECISION, RoundingMode.HALF_EVEN));
    int exponent = rounded.precision() - rounded.scale() - 1;
    if (exponent < -4 || exponent >= PRECISION) {
      BigDecimal mantissa = rounded.movePointLeft(exponent);
      String m = strip(mantissa.setScale(PRECISION - 1, RoundingMode.HALF_EVEN).toPlainString());
      String sign = exponent < 0 ? "-" : "+";
      int abs = Math.abs(exponent);
      return m + "e" + sign + (abs < 10 ? "0" : "") + abs;
    }
    return strip(rounded.setScale(Math.max(0, PRECISION - 1 - exponent)).toPlainString());
  }

  private static String strip(String s) {
    if (s.indexOf('.') < 0) {
      return s;
    }
    s = s.replaceAll("0+$", "");
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }
}
