package dev.infermon.promql.engine;

import java.math.BigDecimal;
import java.util.Locale;

/** Go's float formatting where Prometheus's messages and labels depend on it. Stateless. */
final class GoFormat {
  private GoFormat() {}

  /** {@code strconv.FormatFloat(f, 'f', -1, 64)}: shortest digits, never an exponent. */
  static String shortest(double f) {
    if (Double.isNaN(f)) {
      return "NaN";
    }
    if (Double.isInfinite(f)) {
      return f > 0 ? "+Inf" : "-Inf";
    }
    if (f == 0) {
      return (1 / f) < 0 ? "-0" : "0";
    }
    String s = new BigDecimal(Double.toString(f)).stripTrailingZeros().toPlainString();
    return s;
  }

  /** OpenMetrics float text: shortest digits, integers with {@code .0}, {@code +Inf}. */
  static String openMetrics(double f) {
    String s = g(f);
    if (Double.isNaN(f) || Double.isInfinite(f)) {
      return s;
    }
    if (s.indexOf('.') < 0 && s.indexOf('e') < 0) {
      s += ".0";
    }
    return s;
  }

  /** {@code fmt.Sprintf("%g", f)}: shortest digits, exponent form for large or small values. */
  static String g(double f) {
    if (Double.isNaN(f)) {
      return "NaN";
    }
    if (Double.isInfinite(f)) {
      return f > 0 ? "+Inf" : "-Inf";
    }
    if (f == 0) {
      return (1 / f) < 0 ? "-0" : "0";
    }
    BigDecimal d = new BigDecimal(Double.toString(f)).stripTrailingZeros();
    int exp = d.precision() - d.scale() - 1;
    if (exp < -4 || exp >= 21) {
      String digits = d.unscaledValue().abs().toString();
      StringBuilder sb = new StringBuilder();
      if (f < 0) {
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
    return d.toPlainString();
  }

  /** {@code fmt.Sprintf("%f", f)}: six decimals. */
  static String f(double f) {
    if (Double.isNaN(f)) {
      return "NaN";
    }
    if (Double.isInfinite(f)) {
      return f > 0 ? "+Inf" : "-Inf";
    }
    return String.format(Locale.ROOT, "%f", f);
  }
}
