package dev.infermon.textparse;

import java.math.BigInteger;

/**
 * 128-bit mantissas of the powers of ten from 1e-348 to 1e347, rounded down, as the Eisel-Lemire
 * algorithm needs them (the same table as Go's {@code strconv}, which generated it with wuffs'
 * {@code print-mpb-powers-of-10.go}). Computed once at class load instead of being pasted in: 696
 * BigInteger divisions take a few milliseconds.
 */
final class Pow10Table {
  static final int MIN_EXP10 = -348;
  static final int MAX_EXP10 = 347;

  /** High 64 bits of the normalized mantissa of 10^(i + MIN_EXP10). */
  static final long[] HI = new long[MAX_EXP10 - MIN_EXP10 + 1];

  /** Low 64 bits of the normalized mantissa of 10^(i + MIN_EXP10). */
  static final long[] LO = new long[MAX_EXP10 - MIN_EXP10 + 1];

  static {
    BigInteger ten = BigInteger.TEN;
    for (int q = MIN_EXP10; q <= MAX_EXP10; q++) {
      BigInteger m;
      if (q >= 0) {
        BigInteger p = ten.pow(q);
        int bl = p.bitLength();
        m = bl > 128 ? p.shiftRight(bl - 128) : p.shiftLeft(128 - bl);
      } else {
        BigInteger d = ten.pow(-q);
        // floor(2^s / d) has exactly 128 bits when 2^(s-128) < 2^s/d, i.e. s = bitLength(d) + 127.
        m = BigInteger.ONE.shiftLeft(d.bitLength() + 127).divide(d);
      }
      int i = q - MIN_EXP10;
      HI[i] = m.shiftRight(64).longValue();
      LO[i] = m.longValue();
    }
  }

  private Pow10Table() {}
}
