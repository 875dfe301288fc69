package dev.infermon.textparse;

import java.nio.charset.StandardCharsets;

/**
 * Allocation-free parsing of sample values and timestamps from bytes.
 *
 * <p>The value grammar is the one both formats share (Go's {@code strconv.ParseFloat} as Prometheus
 * restricts it, and OpenMetrics' {@code number}): an optional sign, decimal digits with an optional
 * point and exponent, or {@code Inf}/{@code Infinity} (signed) or {@code NaN}, case-insensitive. No
 * hexadecimal, no underscores, no surrounding blanks. Results are correctly rounded: an exact fast
 * path, then Eisel-Lemire, then (rarely, for more than 19 significant digits that Eisel-Lemire
 * cannot settle) {@link Double#parseDouble}, which allocates.
 *
 * <p>Not thread-safe: one instance per parser; results are left in fields to avoid boxing.
 */
final class Numbers {
  /** The NaN every parsed NaN becomes (Prometheus' {@code value.NormalNaN}). */
  static final double NORMAL_NAN = Double.longBitsToDouble(0x7ff8000000000001L);

  private static final double[] POW10 = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  };

  private static final long[] LONG_POW10 = {
    1L,
    10L,
    100L,
    1_000L,
    10_000L,
    100_000L,
    1_000_000L,
    10_000_000L,
    100_000_000L,
    1_000_000_000L,
    10_000_000_000L,
    100_000_000_000L,
    1_000_000_000_000L,
    10_000_000_000_000L,
    100_000_000_000_000L,
    1_000_000_000_000_000L,
    10_000_000_000_000_000L,
    100_000_000_000_000_000L,
    1_000_000_000_000_000_000L
  };

  /** Result of the last successful {@link #parseFloat}. */
  double value;

  /** Result of the last successful timestamp parse, in milliseconds. */
  long millis;

  // Decimal scan results shared by float and OpenMetrics timestamp parsing.
  private long mantissa; // up to 19 significant digits, unsigned
  private int exp10;
  private boolean negative;
  private boolean truncated;

  /**
   * Parses {@code b[from, to)} as a float into {@link #value}.
   *
   * @return false when the bytes are not a number, or a finite number overflows (as Go reports a
   *     range error for {@code 1e400})
   */
  boolean parseFloat(byte[] b, int from, int to) {
    if (from >= to) {
      return false;
    }
    int i = from;
    boolean neg = false;
    byte c = b[i];
    if (c == '+' || c == '-') {
      neg = c == '-';
      if (++i == to) {
        return false;
      }
      c = b[i];
    }
    if (c == 'i' || c == 'I') {
      int n = to - i;
      if ((n == 3 && equalsIgnoreCase(b, i, "inf"))
          || (n == 8 && equalsIgnoreCase(b, i, "infinity"))) {
        value = neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        return true;
      }
      return false;
    }
    if (c == 'n' || c == 'N') {
      if (i == from && to - i == 3 && equalsIgnoreCase(b, i, "nan")) {
        value = NORMAL_NAN;
        return true;
      }
      return false;
    }
    if (!scanDecimal(b, from, to)) {
      return false;
    }
    double d = toDouble();
    if (Double.isNaN(d)) { // Eisel-Lemire could not decide: rare, exact, allocating
      d = Double.parseDouble(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
    }
    if (Double.isInfinite(d)) {
      return false;
    }
    value = d;
    return true;
  }

  /**
   * Parses {@code b[from, to)} as the text format's timestamp: decimal digits of milliseconds that
   * fit a signed 64-bit integer (Prometheus' lexer takes digits only, no sign).
   */
  boolean parseTextTimestamp(byte[] b, int from, int to) {
    if (from >= to) {
      return false;
    }
    while (from < to - 1 && b[from] == '0') {
      from++;
    }
    if (to - from > 19) {
      return false;
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return false;
      }
      v = v * 10 + d;
    }
    if (v < 0) { // 19 digits can overflow
      return false;
    }
    millis = v;
    return true;
  }

  /**
   * Parses {@code b[from, to)} as an OpenMetrics timestamp (a real number of seconds, no Inf or
   * NaN) into {@link #millis}. The conversion to milliseconds is exact decimal arithmetic,
   * truncating toward zero; values beyond the range of a long saturate.
   */
  boolean parseSecondsTimestamp(byte[] b, int from, int to) {
    if (!scanDecimal(b, from, to)) {
      return false;
    }
    long m = mantissa;
    int e = exp10 + 3; // seconds to milliseconds
    long ms;
    if (m == 0) {
      ms = 0;
    } else if (m < 0) { // more than 63 bits of mantissa: only when 19 digits start high
      ms = e >= 0 ? Long.MAX_VALUE : divideUnsigned(m, e);
    } else if (e >= 0) {
      ms = e > 18 ? Long.MAX_VALUE : multiplySaturating(m, LONG_POW10[e]);
    } else {
      ms = -e > 18 ? 0 : m / LONG_POW10[-e];
    }
    millis = negative ? -ms : ms;
    return true;
  }

  private static long divideUnsigned(long m, int e) {
    return -e > 18 ? 0 : Long.divideUnsigned(m, LONG_POW10[-e]);
  }

  private static long multiplySaturating(long a, long b) {
    long hi = Math.multiplyHigh(a, b);
    long lo = a * b;
    if (hi != 0 || lo < 0) {
      return Long.MAX_VALUE;
    }
    return lo;
  }

  /**
   * Scans {@code [sign] digits [. digits] [e [sign] digits]} (at least one digit in the
   * significand) into mantissa, exp10, negative, truncated. Follows Go's {@code readFloat}.
   */
  private boolean scanDecimal(byte[] b, int from, int to) {
    int i = from;
    boolean neg = false;
    if (i < to && (b[i] == '+' || b[i] == '-')) {
      neg = b[i] == '-';
      i++;
    }
    long man = 0;
    int nd = 0;
    int ndMant = 0;
    int dp = 0;
    boolean sawDot = false;
    boolean sawDigits = false;
    boolean trunc = false;
    for (; i < to; i++) {
      byte c = b[i];
      if (c == '.') {
        if (sawDot) {
          return false;
        }
        sawDot = true;
        dp = nd;
        continue;
      }
      int d = c - '0';
      if (d < 0 || d > 9) {
        break;
      }
      sawDigits = true;
      if (d == 0 && nd == 0) { // leading zeros do not count
        dp--;
        continue;
      }
      nd++;
      if (ndMant < 19) {
        man = man * 10 + d;
        ndMant++;
      } else if (d != 0) {
        trunc = true;
      }
    }
    if (!sawDigits) {
      return false;
    }
    if (!sawDot) {
      dp = nd;
    }
    int e = 0;
    if (i < to) {
      byte c = b[i];
      if (c != 'e' && c != 'E') {
        return false;
      }
      if (++i == to) {
        return false;
      }
      boolean eneg = false;
      if (b[i] == '+' || b[i] == '-') {
        eneg = b[i] == '-';
        if (++i == to) {
          return false;
        }
      }
      for (; i < to; i++) {
        int d = b[i] - '0';
        if (d < 0 || d > 9) {
          return false;
        }
        if (e < 100_000) { // beyond this every result is 0 or infinite anyway
          e = e * 10 + d;
        }
      }
      if (eneg) {
        e = -e;
      }
    }
    mantissa = man;
    exp10 = man == 0 ? 0 : dp - ndMant + e;
    negative = neg;
    truncated = trunc;
    return true;
  }

  /** The scanned decimal as a double, or NaN when only the slow path can decide. */
  private double toDouble() {
    long man = mantissa;
    int e = exp10;
    boolean neg = negative;
    if (man == 0) {
      return neg ? -0.0 : 0.0;
    }
    if (!truncated && (man >>> 53) == 0) { // exact: mantissa and power of ten are both exact
      double f = man;
      if (neg) {
        f = -f;
      }
      if (e == 0) {
        return f;
      }
      if (e > 0 && e <= 15 + 22) {
        int k = e;
        if (k > 22) { // 123e30 = 123e8 * 1e22 when 123e8 is still exact
          f *= POW10[k - 22];
          k = 22;
        }
        if (f <= 1e15 && f >= -1e15) {
          return f * POW10[k];
        }
      } else if (e < 0 && e >= -22) {
        return f / POW10[-e];
      }
    }
    double d = eiselLemire(man, e, neg);
    if (truncated && !Double.isNaN(d)) {
      // The dropped digits lie between man and man+1: agree on both or give up.
      double up = eiselLemire(man + 1, e, neg);
      if (Double.doubleToRawLongBits(up) != Double.doubleToRawLongBits(d)) {
        return Double.NaN;
      }
    }
    return d;
  }

  /**
   * The Eisel-Lemire algorithm (as in Go's {@code strconv/eisel_lemire.go}): man × 10^exp10
   * correctly rounded, or NaN when it cannot decide or the result is subnormal or infinite.
   */
  static double eiselLemire(long man, int exp10, boolean neg) {
    if (exp10 < Pow10Table.MIN_EXP10) {
      return neg ? -0.0 : 0.0; // below 1e-348 even 19 nines round to zero
    }
    if (exp10 > Pow10Table.MAX_EXP10) {
      return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY; // at least 1e348
    }
    int clz = Long.numberOfLeadingZeros(man);
    man <<= clz;
    long retExp2 = ((217706L * exp10) >> 16) + 64 + 1023 - clz;
    int idx = exp10 - Pow10Table.MIN_EXP10;
    long xHi = unsignedMultiplyHigh(man, Pow10Table.HI[idx]);
    long xLo = man * Pow10Table.HI[idx];
    if ((xHi & 0x1FF) == 0x1FF && Long.compareUnsigned(xLo + man, man) < 0) {
      long yHi = unsignedMultiplyHigh(man, Pow10Table.LO[idx]);
      long yLo = man * Pow10Table.LO[idx];
      long mergedHi = xHi;
      long mergedLo = xLo + yHi;
      if (Long.compareUnsigned(mergedLo, xLo) < 0) {
        mergedHi++;
      }
      if ((mergedHi & 0x1FF) == 0x1FF
          && mergedLo + 1 == 0
          && Long.compareUnsigned(yLo + man, man) < 0) {
        return Double.NaN;
      }
      xHi = mergedHi;
      xLo = mergedLo;
    }
    long msb = xHi >>> 63;
    long retMantissa = xHi >>> (msb + 9);
    retExp2 -= 1 ^ msb;
    if (xLo == 0 && (xHi & 0x1FF) == 0 && (retMantissa & 3) == 1) {
      return Double.NaN; // exactly half-way: let the slow path round to even
    }
    retMantissa += retMantissa & 1;
    retMantissa >>>= 1;
    if ((retMantissa >>> 53) > 0) {
      retMantissa >>>= 1;
      retExp2 += 1;
    }
    if (retExp2 - 1 >= 0x7FF - 1 || retExp2 - 1 < 0) {
      return Double.NaN; // subnormal or overflow: the slow path decides, as in Go
    }
    long bits = (retExp2 << 52) | (retMantissa & 0x000FFFFFFFFFFFFFL);
    if (neg) {
      bits |= 0x8000000000000000L;
    }
    return Double.longBitsToDouble(bits);
  }

  private static long unsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }

  private static boolean equalsIgnoreCase(byte[] b, int from, String lower) {
    for (int k = 0; k < lower.length(); k++) {
      if ((b[from + k] | 0x20) != lower.charAt(k)) {
        return false;
      }
    }
    return true;
  }
}
