package dev.infermon.rules;

/**
 * XXH64 with seed 0, the hash Prometheus's {@code labels.Hash} uses; it places each rule group at
 * the same offset within its interval as Prometheus does. Stateless.
 */
final class XxHash64 {
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private XxHash64() {}

  static long hash(byte[] b) {
    int len = b.length;
    int i = 0;
    long h;
    if (len >= 32) {
      long v1 = P1 + P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      for (; i + 32 <= len; i += 32) {
        v1 = round(v1, le64(b, i));
        v2 = round(v2, le64(b, i + 8));
        v3 = round(v3, le64(b, i + 16));
        v4 = round(v4, le64(b, i + 24));
      }
      h =
          Long.rotateLeft(v1, 1)
              + Long.rotateLeft(v2, 7)
              + Long.rotateLeft(v3, 12)
              + Long.rotateLeft(v4, 18);
      h = merge(h, v1);
      h = merge(h, v2);
      h = merge(h, v3);
      h = merge(h, v4);
    } else {
      h = P5;
    }
    h += len;
    for (; i + 8 <= len; i += 8) {
      h ^= round(0, le64(b, i));
      h = Long.rotateLeft(h, 27) * P1 + P4;
    }
    if (i + 4 <= len) {
      h ^= (le32(b, i) & 0xffffffffL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      i += 4;
    }
    for (; i < len; i++) {
      h ^= (b[i] & 0xffL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
    }
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long input) {
    acc += input * P2;
    acc = Long.rotateLeft(acc, 31);
    return acc * P1;
  }

  private static long merge(long acc, long val) {
    acc ^= round(0, val);
    return acc * P1 + P4;
  }

  private static long le64(byte[] b, int i) {
    return (b[i] & 0xffL)
        | (b[i + 1] & 0xffL) << 8
        | (b[i + 2] & 0xffL) << 16
        | (b[i + 3] & 0xffL) << 24
        | (b[i + 4] & 0xffL) << 32
        | (b[i + 5] & 0xffL) << 40
        | (b[i + 6] & 0xffL) << 48
        | (b[i + 7] & 0xffL) << 56;
  }

  private static int le32(byte[] b, int i) {
    return (b[i] & 0xff)
        | (b[i + 1] & 0xff) << 8
        | (b[i + 2] & 0xff) << 16
        | (b[i + 3] & 0xff) << 24;
  }
}
