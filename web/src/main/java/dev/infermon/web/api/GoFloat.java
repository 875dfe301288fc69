package dev.infermon.web.api;

import java.math.BigDecimal;

/**
 * Go's {@code strconv.FormatFloat(v, 'f', -1, 64)}, which Prometheus uses for sample values in the
 * HTTP API: the shortest decimal that reads back as the same double, never in exponent form; {@code
 * NaN}, {@code +Inf}, {@code -Inf}; negative zero is {@code -0}. Stateless.
 */
public final class GoFloat {
  private GoFloat() {}

  /** Formats {@code v} as Prometheus's API does. */
  public static String format(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return shortest(v).toPlainString();
  }

  /**
   * A sample value of a vector or matrix point, as Prometheus 2.42's {@code marshalPointJSON}
   * writes it: like {@link #format}, except that magnitudes below 1e-6 or from 1e21 up use Go's
   * {@code 'e'} form ({@code 6.000000000000001e-08}). Scalars and strings use {@link #format}.
   */
  public static String point(double v) {
    double abs = Math.abs(v);
    if (abs != 0 && Double.isFinite(v) && (abs < 1e-6 || abs >= 1e21)) {
      return GoTime.expFloat(v);
    }
    return format(v);
  }

  /** The shortest decimal that parses back to {@code v} (finite, not zero). */
  static BigDecimal shortest(double v) {
    return dev.infermon.model.text.GoFloat.shortest(v);
  }

  /**
   * A timestamp in milliseconds as Prometheus writes it: seconds, and when there is a fraction,
   * exactly three decimals ({@code 1.5} s is {@code 1.500}).
   */
  public static String timestamp(long ms) {
    StringBuilder sb = new StringBuilder(24);
    long t = ms;
    if (t < 0) {
      sb.append('-');
      t = -t;
    }
    sb.append(t / 1000);
    long fraction = t % 1000;
    if (fraction != 0) {
      sb.append('.');
      if (fraction < 100) {
        sb.append('0');
      }
      if (fraction < 10) {
        sb.append('0');
      }
      sb.append(fraction);
    }
    return sb.toString();
  }
}
