package dev.infermon.scrape;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The scrape cache's table: series bytes to a value, by open addressing over parallel arrays. A
 * series is known by two hashes of its bytes instead of a copy of them: the parser's 64-bit hash,
 * and a 61-bit polynomial hash keyed by a random number drawn once per process ({@link #check}).
 * Keeping the bytes cost ~150 bytes per series (a third of the scrape cache and an eighth of the
 * live heap at 51 k series); two hashes cost 16.
 *
 * <p>Two different series of one target are taken for one only if both hashes agree. For the keyed
 * hash alone that happens with probability about k / 2<sup>61</sup> per pair of series of up to k
 * 7-byte words, whatever their bytes (the two hashes differ by a non-zero polynomial of degree at
 * most k in the key over the field of 2<sup>61</sup> - 1 elements, which has at most k roots, and
 * the key is a random element): below 2<sup>-56</sup> for series of 130 bytes, below
 * 2<sup>-31</sup> over all pairs of a target of 10,000 series, and a page cannot aim at it without
 * knowing the key. A lookup that hits compares two longs and hashes the bytes once; it allocates
 * nothing. docs/rationale.md ("Memory per series") has the reasoning.
 *
 * <p>Not thread-safe (one scrape loop at a time).
 */
final class SeriesBytesMap<V> {
  private static final int MIN_CAPACITY = 16;
  private static final long P = (1L << 61) - 1; // a Mersenne prime
  private static final long MASK56 = (1L << 56) - 1;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long KEY = 2 + Math.floorMod(new SecureRandom().nextLong(), P - 3);
  private static final long KEY2 = mulMod(KEY, KEY);

  private long[] hashes;
  private long[] checks;
  private Object[] values; // null marks a free slot
  private int shift; // 64 - log2(capacity)
  private int size;

  SeriesBytesMap() {
    allocate(MIN_CAPACITY);
  }

  int size() {
    return size;
  }

  /** The value stored for {@code b[off, off + len)} with hash {@code hash}, or null. */
  V get(byte[] b, int off, int len, long hash) {
    int i = find(b, off, len, hash);
    return i < 0 ? null : value(i);
  }

  /** Stores {@code v} (not null) for the bytes, replacing any value. */
  void put(byte[] b, int off, int len, long hash, V v) {
    if (v == null) {
      throw new IllegalArgumentException("value must not be null");
    }
    int i = find(b, off, len, hash);
    if (i >= 0) {
      values[i] = v;
      return;
    }
    if (overLoaded(size + 1, values.length)) {
      rehash(values.length * 2);
    }
    insert(hash, check(b, off, len), v);
    size++;
  }

  /** Calls {@code f} with every value, in table order. */
  void forEachValue(Consumer<? super V> f) {
    Object[] vs = values;
    for (int i = 0; i < vs.length; i++) {
      if (vs[i] != null) {
        f.accept(valueOf(vs[i]));
      }
    }
  }

  /** Removes every entry whose value matches; rebuilds the table only when something goes. */
  void removeIf(Predicate<? super V> doomed) {
    int keep = 0;
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null && !doomed.test(value(i))) {
        keep++;
      }
    }
    if (keep == size) {
      return;
    }
    long[] oldHashes = hashes;
    long[] oldChecks = checks;
    Object[] oldValues = values;
    allocate(capacityFor(keep));
    for (int i = 0; i < oldValues.length; i++) {
      if (oldValues[i] != null && !doomed.test(valueOf(oldValues[i]))) {
        insert(oldHashes[i], oldChecks[i], oldValues[i]);
      }
    }
    size = keep;
  }

  private int find(byte[] b, int off, int len, long hash) {
    int mask = values.length - 1;
    boolean checked = false;
    long check = 0;
    for (int i = slot(hash); ; i = (i + 1) & mask) {
      if (values[i] == null) {
        return -1;
      }
      if (hashes[i] == hash) {
        if (!checked) {
          check = check(b, off, len);
          checked = true;
        }
        if (checks[i] == check) {
          return i;
        }
      }
    }
  }

  /**
   * The keyed hash: the bytes as little-endian 7-byte words w<sub>1</sub>..w<sub>k</sub> (the last
   * one short), then the length, as the polynomial w<sub>1</sub>K<sup>k</sup> + ... +
   * w<sub>k</sub>K + len modulo 2<sup>61</sup> - 1. Every word is below the modulus and the length
   * fixes the split, so different byte strings give different polynomials.
   */
  static long check(byte[] b, int off, int len) {
    long h = 0;
    int i = off;
    int end = off + len;
    // Two words per step, h K^2 + w1 K + w2: the same polynomial as one word per step, but the two
    // products do not wait on each other (a series' bytes are hashed on every lookup).
    for (; end - i >= 15; i += 14) {
      long w1 = (long) LONGS.get(b, i) & MASK56;
      long w2 = (long) LONGS.get(b, i + 7) & MASK56;
      h = add(add(mulMod(h, KEY2), mulMod(w1, KEY)), w2);
    }
    for (; end - i >= 8; i += 7) {
      h = add(mulMod(h, KEY), (long) LONGS.get(b, i) & MASK56);
    }
    if (i < end) {
      long w = 0;
      for (int j = end - 1; j >= i; j--) {
        w = (w << 8) | (b[j] & 0xff);
      }
      h = add(mulMod(h, KEY), w);
    }
    return add(mulMod(h, KEY), len);
  }

  /** The key (for tests that recompute the polynomial). */
  static long key() {
    return KEY;
  }

  /** {@code a * b mod P} for {@code a, b < P}. */
  private static long mulMod(long a, long b) {
    long lo = a * b;
    long hi = Math.multiplyHigh(a, b); // below 2^58: the product is below 2^122
    long r = (lo & P) + (lo >>> 61) + (hi << 3); // 2^64 = 2^3 * 2^61 and 2^61 = 1 (mod P)
    r = (r & P) + (r >>> 61);
    return r >= P ? r - P : r;
  }

  /** {@code (h + w) mod P} for {@code h < P, w < 2^61}. */
  private static long add(long h, long w) {
    long r = h + w;
    r = (r & P) + (r >>> 61);
    return r >= P ? r - P : r;
  }

  private void insert(long hash, long check, Object v) {
    int mask = values.length - 1;
    int i = slot(hash);
    while (values[i] != null) {
      i = (i + 1) & mask;
    }
    hashes[i] = hash;
    checks[i] = check;
    values[i] = v;
  }

  private int slot(long hash) {
    // Fibonacci hashing: the high bits of the product mix every bit of the hash.
    return (int) ((hash * 0x9E3779B97F4A7C15L) >>> shift);
  }

  private void rehash(int capacity) {
    long[] oldHashes = hashes;
    long[] oldChecks = checks;
    Object[] oldValues = values;
    allocate(capacity);
    for (int i = 0; i < oldValues.length; i++) {
      if (oldValues[i] != null) {
        insert(oldHashes[i], oldChecks[i], oldValues[i]);
      }
    }
  }

  private void allocate(int capacity) {
    hashes = new long[capacity];
    checks = new long[capacity];
    values = new Object[capacity];
    shift = 64 - Integer.numberOfTrailingZeros(capacity);
  }

  private static int capacityFor(int n) {
    int c = MIN_CAPACITY;
    while (overLoaded(n, c)) {
      c <<= 1;
    }
    return c;
  }

  /**
   * Whether {@code n} entries would fill more than three quarters of {@code capacity} slots. At 3/4
   * a hit probes ~2.5 slots on average (compared as longs, the bytes hashed once), and a target's
   * table is 1.3-2.7 slots per series rather than 2-4 at 1/2: 20 bytes a slot, ~30 bytes less per
   * series.
   */
  static boolean overLoaded(int n, int capacity) {
    return (long) n * 4 > (long) capacity * 3;
  }

  private V value(int i) {
    return valueOf(values[i]);
  }

  @SuppressWarnings("unchecked")
  private V valueOf(Object o) {
    return (V) o;
  }
}
