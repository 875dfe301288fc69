package dev.infermon.config.value;

/**
 * A size in bytes written as Prometheus writes them ({@code units.Base2Bytes}): an integer with an
 * optional unit {@code B}, {@code KB}/{@code KiB}, {@code MB}/{@code MiB}, {@code GB}/{@code GiB},
 * {@code TB}/{@code TiB}, {@code PB}/{@code PiB}, {@code EB}/{@code EiB}. Every unit is a power of
 * 1024, as in Prometheus ({@code 1KB} is 1024 bytes). {@code 0} means "no limit" where a limit is
 * meant.
 */
public record ByteSize(long bytes) implements Comparable<ByteSize> {
  /** Zero bytes. */
  public static final ByteSize ZERO = new ByteSize(0);

  private static final String[] UNITS = {"K", "M", "G", "T", "P", "E"};

  public ByteSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("byte size must not be negative: " + bytes);
    }
  }

  public static ByteSize ofBytes(long bytes) {
    return new ByteSize(bytes);
  }

  public static ByteSize ofMebibytes(long mib) {
    return new ByteSize(Math.multiplyExact(mib, 1L << 20));
  }

  /**
   * Parses a size such as {@code 10MB}, {@code 512KiB} or {@code 1048576}.
   *
   * @throws IllegalArgumentException naming the value, for example {@code invalid size "10XB"}
   */
  public static ByteSize parse(String s) {
    int i = 0;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      i++;
    }
    if (i == 0) {
      throw invalid(s);
    }
    long n;
    try {
      n = Long.parseLong(s.substring(0, i));
    } catch (NumberFormatException e) {
      throw invalid(s);
    }
    String unit = s.substring(i);
    int shift;
    if (unit.isEmpty() || unit.equals("B")) {
      shift = 0;
    } else {
      shift = -1;
      for (int u = 0; u < UNITS.length; u++) {
        if (unit.equals(UNITS[u] + "B") || unit.equals(UNITS[u] + "iB")) {
          shift = 10 * (u + 1);
        }
      }
      if (shift < 0) {
        throw invalid(s);
      }
    }
    if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException("size out of range: \"" + s + "\"");
    }
    return new ByteSize(n << shift);
  }

  /** The largest exact unit: {@code 10MiB}, {@code 1536KiB}, {@code 100B}, {@code 0B}. */
  public String format() {
    if (bytes == 0) {
      return "0B";
    }
    for (int u = UNITS.length - 1; u >= 0; u--) {
      long unit = 1L << (10 * (u + 1));
      if (bytes % unit == 0) {
        return (bytes / unit) + UNITS[u] + "iB";
      }
    }
    return bytes + "B";
  }

  private static IllegalArgumentException invalid(String s) {
    return new IllegalArgumentException(
        "invalid size \""
            + s
            + "\": expected an integer with an optional unit B, KB, MB, GB, TB,"
            + " PB, EB (powers of 1024; KiB, MiB, ... also accepted)");
  }

  @Override
  public int compareTo(ByteSize o) {
    return Long.compare(bytes, o.bytes);
  }

  @Override
  public String toString() {
    return format();
  }
}
