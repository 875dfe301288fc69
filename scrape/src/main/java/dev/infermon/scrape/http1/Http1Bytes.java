package dev.infermon.scrape.http1;

import java.nio.charset.StandardCharsets;

/** Byte-level helpers of the HTTP/1.1 reader: ASCII matching without strings. Stateless. */
final class Http1Bytes {
  private Http1Bytes() {}

  static boolean digit(byte c) {
    return c >= '0' && c <= '9';
  }

  /** Whether {@code b[from..]} starts with {@code s} exactly. */
  static boolean ascii(byte[] b, int from, String s) {
    for (int i = 0; i < s.length(); i++) {
      if (b[from + i] != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code b[from..]} starts with {@code lower}, ignoring ASCII case. */
  static boolean name(byte[] b, int from, String lower) {
    for (int i = 0; i < lower.length(); i++) {
      int c = b[from + i];
      if (c >= 'A' && c <= 'Z') {
        c += 'a' - 'A';
      }
      if (c != lower.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code s} holds exactly the Latin-1 bytes {@code b[from, end)}: no new string. */
  static boolean same(String s, byte[] b, int from, int end) {
    if (s == null || s.length() != end - from) {
      return false;
    }
    for (int i = from; i < end; i++) {
      if (s.charAt(i - from) != (char) (b[i] & 0xff)) {
        return false;
      }
    }
    return true;
  }

  static String latin1(byte[] b, int from, int end) {
    return new String(b, from, end - from, StandardCharsets.ISO_8859_1);
  }

  /** The bytes for an error message: printable ASCII, at most 100 characters. */
  static String printable(byte[] b, int from, int end) {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < end && sb.length() < 100; i++) {
      int c = b[i] & 0xff;
      sb.append(c >= 0x20 && c < 0x7f ? (char) c : '?');
    }
    if (end - from > 100) {
      sb.append("...");
    }
    return sb.toString();
  }
}
