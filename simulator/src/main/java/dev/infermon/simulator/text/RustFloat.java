package dev.infermon.simulator.text;

import java.math.BigDecimal;

/**
 * Formats a double as Rust's {@code Display} for {@code f64} does, which is how the
 * metrics-exporter-prometheus crate (TGI's router) writes values and {@code le} bounds: the
 * shortest digits that read back, always in plain decimal notation ({@code 0.00015000000000000001},
 * never an exponent), and an integral value without a fraction ({@code 128}, not {@code 128.0}).
 * Infinities are {@code +Inf}/{@code -Inf}.
 */
public final class RustFloat {
  private RustFloat() {}

  /** The text Rust's {@code Display} gives {@code d}. */
  public static String format(double d) {
    if (!Double.isFinite(d)) {
      return PyFloat.format(d); // +Inf, -Inf, NaN: the same text
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0" : "0";
    }
    // Python's repr has the shortest digits; only its notation differs
    String plain = new BigDecimal(PyFloat.repr(d)).toPlainString();
    if (plain.indexOf('.') >= 0) {
      int end = plain.length();
      while (plain.charAt(end - 1) == '0') {
        end--;
      }
      if (plain.charAt(end - 1) == '.') {
        end--;
      }
      plain = plain.substring(0, end);
    }
    return plain;
  }
}
