package dev.infermon.model.text;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Go's shortest-digit float formatting ({@code strconv.FormatFloat(v, fmt, -1, 64)}), which
 * Prometheus uses in sample values (the HTTP API's, see the web module's {@code JsonNumbers}),
 * label values it creates ({@code count_values}, {@code le}), printed expressions, messages and the
 * scrape timeout header. The product's one Go float formatter. "Shortest" is the fewest significant
 * digits that read back as the same double. Java 17's {@link Double#toString} is usually but not
 * always that (JDK-4511638: {@code 1e23} prints as {@code 9.999999999999999E22}), so its digits are
 * checked and, when long, shortened by search. Stateless.
 */
public final class GoFloat {
  private GoFloat() {}

  /**
   * The shortest decimal that reads back as {@code v}, trailing zeros stripped.
   *
   * @throws IllegalArgumentException when {@code v} is NaN or infinite
   */
  public static BigDecimal shortest(double v) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException("not a finite number: " + v);
    }
    if (v == 0) {
      return BigDecimal.ZERO;
    }
    BigDecimal d = new BigDecimal(Double.toString(v)).stripTrailingZeros();
    if (d.precision() < 16 && Math.abs(v) >= Double.MIN_NORMAL) {
      return d; // for normal numbers Double.toString errs only with 16 or more digits
    }
    BigDecimal exact = new BigDecimal(v);
    for (int p = 1; p <= d.precision(); p++) {
      BigDecimal candidate = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (candidate.doubleValue() == v) {
        return candidate.stripTrailingZeros();
      }
    }
    return d;
  }

  /**
   * {@code strconv.FormatFloat(v, 'f', -1, 64)}: never an exponent; {@code NaN}, {@code +Inf},
   * {@code -Inf}, and {@code -0} for negative zero.
   */
  public static String formatF(double v) {
    String special = special(v);
    if (special != null) {
      return special;
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v); // counts and most gauges: no search for digits
    }
    return shortest(v).toPlainString();
  }

  /** {@code strconv.FormatFloat(v, 'e', -1, 64)}: {@code 1e+00}, {@code -1.5e-07}. */
  public static String formatE(double v) {
    String special = special(v);
    if (special != null) {
      return v == 0 ? special + "e+00" : special;
    }
    return exponent(v, shortest(Math.abs(v)));
  }

  /**
   * {@code strconv.FormatFloat(v, 'g', -1, 64)}, which is also {@code fmt}'s {@code %g} and {@code
   * %v}: the {@code 'e'} form when the decimal exponent is below -4 or from 6 up (strconv's rule
   * for the shortest precision: {@code 1e+06}, {@code 1.234567e+06}), the {@code 'f'} form
   * otherwise.
   */
  public static String formatG(double v) {
    String special = special(v);
    if (special != null) {
      return special;
    }
    BigDecimal d = shortest(Math.abs(v));
    int exp = d.precision() - d.scale() - 1;
    if (exp < -4 || exp >= 6) {
      return exponent(v, d);
    }
    return (v < 0 ? "-" : "") + d.toPlainString();
  }

  private static String special(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return Double.doubleToRawLongBits(v) < 0 ? "-0" : "0";
    }
    return null;
  }

  private static String exponent(double v, BigDecimal abs) {
    String digits = abs.unscaledValue().toString();
    int exp = abs.precision() - abs.scale() - 1;
    StringBuilder sb = new StringBuilder(digits.length() + 8);
    if (v < 0) {
      sb.append('-');
    }
    sb.append(digits.charAt(0));
    if (digits.length() > 1) {
      sb.append('.').append(digits, 1, digits.length());
    }
    sb.append('e').append(exp < 0 ? '-' : '+');
    int a = Math.abs(exp);
    if (a < 10) {
      sb.append('0');
    }
    return sb.append(a).toString();
  }
}
