package dev.infermon.web.remotewrite;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Label names and values decoded from remote-write bodies, kept so that a string sent again (the
 * same series every interval, the same names in every series) is not allocated again. A
 * remote-write request of two thousand series otherwise allocates tens of thousands of strings that
 * die at once, which in a small heap is a collection per request.
 *
 * <p>Direct-mapped: one slot per hash, a miss overwrites the slot. So the table never grows past
 * its slots and needs no eviction, and a string keeps no more than its slot alive (most are the
 * head's own label strings anyway).
 *
 * <p>Thread-safe without locks: slots hold immutable strings, and a racing write loses only a hit.
 */
final class LabelStrings {
  private static final int SLOTS = 1 << 15;

  private final String[] slots = new String[SLOTS];

  /**
   * The string that the UTF-8 bytes {@code buf[off, off+len)} encode.
   *
   * @throws CharacterCodingException when the bytes are not valid UTF-8
   */
  String get(byte[] buf, int off, int len) throws CharacterCodingException {
    int h = 0x811c9dc5;
    for (int i = off, end = off + len; i < end; i++) {
      h = (h ^ buf[i]) * 0x01000193;
    }
    int slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    String s = slots[slot];
    if (s != null && sameAscii(s, buf, off, len)) {
      return s;
    }
    s = decode(buf, off, len);
    slots[slot] = s;
    return s;
  }

  /**
   * Whether {@code s} is exactly the bytes, when the bytes are ASCII. Non-ASCII bytes answer false,
   * so those strings are decoded each time: rare in label sets, and it keeps the check to a loop.
   */
  private static boolean sameAscii(String s, byte[] buf, int off, int len) {
    if (s.length() != len) {
      return false;
    }
    for (int i = 0; i < len; i++) {
      byte b = buf[off + i];
      if (b < 0 || s.charAt(i) != b) {
        return false;
      }
    }
    return true;
  }

  /** Strict UTF-8, as protobuf's {@code readStringRequireUtf8}: malformed input is an error. */
  private static String decode(byte[] buf, int off, int len) throws CharacterCodingException {
    for (int i = off, end = off + len; i < end; i++) {
      if (buf[i] < 0) {
        return StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(buf, off, len))
            .toString();
      }
    }
    return new String(buf, off, len, StandardCharsets.ISO_8859_1);
  }
}
