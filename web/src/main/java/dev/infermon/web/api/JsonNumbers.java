package dev.infermon.web.api;

import dev.infermon.model.text.GoFloat;

/**
 * Numbers as Prometheus 2.42's HTTP API writes them in JSON: sample values ({@link #point}) and
 * timestamps ({@link #timestamp}). The float formatting itself is model's {@link GoFloat} ({@code
 * strconv.FormatFloat}); scalars and other values use its {@link GoFloat#formatF}. Stateless.
 */
public final class JsonNumbers {
  private JsonNumbers() {}

  /**
   * A sample value of a vector or matrix point, as Prometheus 2.42's {@code marshalPointJSON}
   * writes it: {@link GoFloat#formatF}, except that magnitudes below 1e-6 or from 1e21 up use Go's
   * {@code 'e'} form ({@code 6.000000000000001e-08}).
   */
  public static String point(double v) {
    double abs = Math.abs(v);
    if (abs != 0 && Double.isFinite(v) && (abs < 1e-6 || abs >= 1e21)) {
      return GoFloat.formatE(v);
    }
    return GoFloat.formatF(v);
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
