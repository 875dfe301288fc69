package dev.infermon.textparse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns the bytes of metric names, label names and label values into Strings, returning the same
 * String for the same bytes so that a parser allocates nothing for a symbol it has seen before.
 *
 * <p>Share one table across consecutive parses (Prometheus shares a {@code labels.SymbolTable} per
 * scrape loop; infermon's scrapes share one per worker thread, since the pages of a fleet repeat
 * each other's symbols); the strings of a steady page then cost nothing. The table is bounded: when
 * it holds {@link #capacity()} symbols it is cleared and starts over, so label values that never
 * repeat (request ids, timestamps) cannot grow it without bound.
 *
 * <p>Not thread-safe: use one table per thread (parsers are single-threaded too). The Strings it
 * returns are ordinary immutable Strings that stay valid forever.
 */
public final class SymbolTable {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The default bound on the number of symbols held. */
  public static final int DEFAULT_CAPACITY = 1 << 16;

  private final int capacity;
  private byte[][] keys;
  private String[] values;
  private int[] hashes;
  private int size;

  /** A table holding at most {@link #DEFAULT_CAPACITY} symbols. */
  public SymbolTable() {
    this(DEFAULT_CAPACITY);
  }

  /**
   * A table holding at most {@code capacity} symbols.
   *
   * @throws IllegalArgumentException if capacity is below 16
   */
  public SymbolTable(int capacity) {
    if (capacity < 16) {
      throw new IllegalArgumentException("symbol table capacity must be at least 16: " + capacity);
    }
    this.capacity = capacity;
    allocate(64);
  }

  /** The most symbols held before the table clears itself. */
  public int capacity() {
    return capacity;
  }

  /** The number of symbols held now. */
  public int size() {
    return size;
  }

  private void allocate(int slots) {
    keys = new byte[slots][];
    values = new String[slots];
    hashes = new int[slots];
    size = 0;
  }

  /** The String for the UTF-8 bytes {@code b[off, off+len)}, which must be valid UTF-8. */
  String intern(byte[] b, int off, int len) {
    // The parser's series hash, eight bytes at a time: metadata lines intern their family name
    // and HELP text every scrape.
    long x = BaseParser.hash(b, off, off + len);
    int h = (int) (x ^ (x >>> 32));
    boolean ascii = isAscii(b, off, off + len);
    int mask = keys.length - 1;
    for (int slot = h & mask; ; slot = (slot + 1) & mask) {
      byte[] k = keys[slot];
      if (k == null) {
        String s =
            new String(b, off, len, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
        insert(slot, h, Arrays.copyOfRange(b, off, off + len), s);
        return s;
      }
      if (hashes[slot] == h && Arrays.equals(k, 0, k.length, b, off, off + len)) {
        return values[slot];
      }
    }
  }

  private static boolean isAscii(byte[] b, int from, int to) {
    long high = 0;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      high |= (long) LONGS.get(b, i);
    }
    for (; i < to; i++) {
      high |= b[i]; // sign-extended: a byte >= 0x80 sets bit 7 too
    }
    return (high & 0x8080808080808080L) == 0;
  }

  private void insert(int slot, int h, byte[] key, String value) {
    if (size >= capacity) {
      allocate(keys.length);
      slot = h & (keys.length - 1);
    } else if ((size + 1) * 2 > keys.length) {
      grow();
      int mask = keys.length - 1;
      slot = h & mask;
      while (keys[slot] != null) {
        slot = (slot + 1) & mask;
      }
    }
    keys[slot] = key;
    values[slot] = value;
    hashes[slot] = h;
    size++;
  }

  private void grow() {
    byte[][] oldKeys = keys;
    String[] oldValues = values;
    int[] oldHashes = hashes;
    int n = size;
    allocate(oldKeys.length * 2);
    int mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null) {
        int slot = oldHashes[i] & mask;
        while (keys[slot] != null) {
          slot = (slot + 1) & mask;
        }
        keys[slot] = oldKeys[i];
        values[slot] = oldValues[i];
        hashes[slot] = oldHashes[i];
      }
    }
    size = n;
  }
}
