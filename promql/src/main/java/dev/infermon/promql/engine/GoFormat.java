package dev.infermon.promql.engine;

import dev.infermon.model.text.GoFloat;
import java.util.Locale;

/** Go's float formatting where Prometheus's messages and labels depend on it. Stateless. */
final class GoFormat {
  private GoFormat() {}

  /** {@code strconv.FormatFloat(f, 'f', -1, 64)}: shortest digits, never an exponent. */
  static String shortest(double f) {
    return GoFloat.formatF(f);
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
    return GoFloat.formatG(f);
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
