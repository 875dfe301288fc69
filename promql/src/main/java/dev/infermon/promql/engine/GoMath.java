package dev.infermon.promql.engine;

/**
 * Go's {@code math} functions where Java's differ in special cases or precision. Prometheus's
 * results follow Go, so the engine does too. Stateless.
 */
final class GoMath {
  private GoMath() {}

  /** {@code math.Pow}: unlike Java, 1^y is 1 for any y, and (-1)^±Inf is 1. */
  static double pow(double x, double y) {
    if (x == 1) {
      return 1;
    }
    if (x == -1 && Double.isInfinite(y)) {
      return 1;
    }
    return Math.pow(x, y);
  }

  /** {@code math.Log2}: exact for powers of two (Go splits off the binary exponent). */
  static double log2(double x) {
    if (Double.isNaN(x) || x <= 0 || Double.isInfinite(x)) {
      return Math.log(x) / Math.log(2);
    }
    int exp = Math.getExponent(x);
    double frac;
    if (exp == Double.MIN_EXPONENT - 1) { // subnormal
      double scaled = x * 0x1p52;
      exp = Math.getExponent(scaled) - 52;
      frac = scaled / Math.scalb(1.0, Math.getExponent(scaled));
    } else {
      frac = x / Math.scalb(1.0, exp);
    }
    // Go's Frexp returns frac in [0.5, 1): shift by one.
    frac /= 2;
    exp += 1;
    if (frac == 0.5) {
      return exp - 1;
    }
    return Math.log(frac) * (1 / Math.log(2)) + exp;
  }

  static double asinh(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x) || x == 0) {
      return x;
    }
    double a = Math.abs(x);
    double r;
    if (a > 0x1p28) {
      r = Math.log(a) + Math.log(2);
    } else if (a > 2) {
      r = Math.log(2 * a + 1 / (Math.sqrt(a * a + 1) + a));
    } else if (a < 0x1p-28) {
      r = a;
    } else {
      double t = a * a;
      r = Math.log1p(a + t / (1 + Math.sqrt(1 + t)));
    }
    return x < 0 ? -r : r;
  }

  static double acosh(double x) {
    if (x < 1 || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == 1) {
      return 0;
    }
    if (x >= 0x1p28) {
      return Math.log(x) + Math.log(2);
    }
    if (x > 2) {
      return Math.log(2 * x - 1 / (x + Math.sqrt(x * x - 1)));
    }
    double t = x - 1;
    return Math.log1p(t + Math.sqrt(2 * t + t * t));
  }

  static double atanh(double x) {
    if (x < -1 || x > 1 || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == 1) {
      return Double.POSITIVE_INFINITY;
    }
    if (x == -1) {
      return Double.NEGATIVE_INFINITY;
    }
    double a = Math.abs(x);
    double t;
    if (a < 0x1p-28) {
      t = a;
    } else if (a < 0.5) {
      t = a + a;
      t = 0.5 * Math.log1p(t + t * a / (1 - a));
    } else {
      t = 0.5 * Math.log1p((a + a) / (1 - a));
    }
    return x < 0 ? -t : t;
  }

  /** {@code math.Max}: NaN if either is NaN, +Inf wins. */
  static double max(double a, double b) {
    if (Double.isInfinite(a) && a > 0 || Double.isInfinite(b) && b > 0) {
      return Double.POSITIVE_INFINITY;
    }
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.NaN;
    }
    return Math.max(a, b);
  }

  /** {@code math.Min}: NaN if either is NaN, -Inf wins. */
  static double min(double a, double b) {
    if (Double.isInfinite(a) && a < 0 || Double.isInfinite(b) && b < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.NaN;
    }
    return Math.min(a, b);
  }

  /** Go's {@code int64(f)} on amd64: NaN and out-of-range values become the minimum int64. */
  static long toInt64(double f) {
    if (Double.isNaN(f) || f >= 0x1p63 || f < -0x1p63) {
      return Long.MIN_VALUE;
    }
    return (long) f;
  }
}
