package dev.infermon.tsdb.block;

import java.security.SecureRandom;

/**
 * ULIDs (Universally Unique Lexicographically Sortable Identifiers) name blocks, as in Prometheus:
 * 26 Crockford base-32 characters, a 48-bit millisecond timestamp then 80 random bits, so block
 * directories sort by creation time. Thread-safe.
 */
public final class Ulid {
  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private Ulid() {}

  /** A new ULID for the current time. */
  public static String next() {
    return of(System.currentTimeMillis(), RANDOM);
  }

  static String of(long millis, java.util.Random random) {
    if (millis < 0 || millis >= (1L << 48)) {
      throw new IllegalArgumentException("ULID time out of range: " + millis);
    }
    long randHi = random.nextLong() & 0xFFFFL; // 16 bits
    long randLo = random.nextLong(); // 64 bits
    char[] out = new char[26];
    // 128 bits = 48 time + 80 random, written as 26 chars of 5 bits (the first holds 3 bits).
    long hi = (millis << 16) | randHi; // top 64 bits
    long lo = randLo; // bottom 64 bits
    for (int i = 25; i >= 0; i--) {
      int bit = (25 - i) * 5; // position of this char's lowest bit from the right
      int v;
      if (bit + 5 <= 64) {
        v = (int) ((lo >>> bit) & 31);
      } else if (bit >= 64) {
        v = (int) ((hi >>> (bit - 64)) & 31);
      } else {
        int fromLo = 64 - bit;
        v = (int) (((lo >>> bit) | (hi << fromLo)) & 31);
      }
      out[i] = ALPHABET[v];
    }
    return new String(out);
  }

  /** True when {@code s} is a well-formed ULID (26 upper-case Crockford characters). */
  public static boolean isValid(String s) {
    if (s == null || s.length() != 26 || s.charAt(0) > '7') {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok = false;
      for (char a : ALPHABET) {
        if (a == c) {
          ok = true;
          break;
        }
      }
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
