package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The scrape cache's table against a {@link HashMap} of strings. */
class SeriesBytesMapTest {
  record Op(String key, int value, boolean purge) {}

  @Test
  void equalHashesAreToldApartByTheirBytes() {
    // The parser's hash collides on purpose; the keyed hash of the bytes tells the two apart.
    SeriesBytesMap<String> m = new SeriesBytesMap<>();
    byte[] page = "a{x=\"1\"} 1\nb{x=\"2\"} 2\n".getBytes(StandardCharsets.UTF_8);

    m.put(page, 0, 8, 42, "a");
    m.put(page, 11, 8, 42, "b"); // a hash collision on purpose

    assertThat(m.get(page, 0, 8, 42)).isEqualTo("a");
    assertThat(m.get(page, 11, 8, 42)).isEqualTo("b");
    assertThat(m.get(page, 0, 7, 42)).isNull();
    assertThat(m.size()).isEqualTo(2);
  }

  @Test
  void theKeyedHashSeesEveryByteAndTheLength() {
    String base = "vllm:num_requests_running{engine=\"0\",model_name=\"m\"}";
    long h = check(base);
    // A different last byte, a different byte on each side of a 7-byte word boundary, one byte
    // more or less, and zero bytes added (which a hash of words alone could not tell apart).
    assertThat(check(base.substring(0, base.length() - 1) + "]")).isNotEqualTo(h);
    assertThat(check("X" + base.substring(1))).isNotEqualTo(h);
    for (int at : new int[] {6, 7, 13, 14}) {
      char[] c = base.toCharArray();
      c[at] = (char) (c[at] ^ 1);
      assertThat(check(new String(c))).as("byte %d", at).isNotEqualTo(h);
    }
    assertThat(check(base + "\0")).isNotEqualTo(h);
    assertThat(check("a")).isNotEqualTo(check("a\0")).isNotEqualTo(check("a\0\0"));
    assertThat(check("")).isNotEqualTo(check("\0"));
    assertThat(check(base.substring(0, base.length() - 1))).isNotEqualTo(h);
  }

  @Test
  void theKeyedHashDependsOnTheBytesNotWhereTheyAre() {
    byte[] page = "xxa{x=\"1\"} 1\na{x=\"1\"} 2\n".getBytes(StandardCharsets.UTF_8);
    assertThat(SeriesBytesMap.check(page, 2, 8)).isEqualTo(SeriesBytesMap.check(page, 13, 8));
    assertThat(SeriesBytesMap.check(page, 2, 8)).isEqualTo(check("a{x=\"1\"}"));
  }

  @Property(tries = 300)
  void distinctSeriesGetDistinctKeyedHashes(
      @ForAll("series") String a, @ForAll("series") String b) {
    if (!a.equals(b)) {
      assertThat(check(a)).isNotEqualTo(check(b));
    } else {
      assertThat(check(a)).isEqualTo(check(b));
    }
  }

  @Provide
  Arbitrary<String> series() {
    return Arbitraries.strings().withChars("ab{}=\",\0").ofMinLength(0).ofMaxLength(40);
  }

  private static long check(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return SeriesBytesMap.check(b, 0, b.length);
  }

  @Property(tries = 200)
  void behavesAsAMap(@ForAll("ops") List<Op> ops) {
    SeriesBytesMap<Integer> m = new SeriesBytesMap<>();
    Map<String, Integer> ref = new HashMap<>();
    for (Op op : ops) {
      if (op.purge()) {
        // Drop odd values, as the cache drops entries a scrape did not see.
        m.removeIf(v -> v % 2 != 0);
        ref.values().removeIf(v -> v % 2 != 0);
        continue;
      }
      // The key sits at an offset inside a larger buffer, as in the parser's page.
      byte[] page = ("##" + op.key() + "##").getBytes(StandardCharsets.UTF_8);
      int len = page.length - 4;
      long hash = weakHash(op.key());
      assertThat(m.get(page, 2, len, hash)).isEqualTo(ref.get(op.key()));
      m.put(page, 2, len, hash, op.value());
      page[2 + len / 2] ^= 1; // the map owns a copy: the page may change afterwards
      ref.put(op.key(), op.value());
    }
    assertThat(m.size()).isEqualTo(ref.size());
    for (Map.Entry<String, Integer> e : ref.entrySet()) {
      byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
      assertThat(m.get(k, 0, k.length, weakHash(e.getKey()))).isEqualTo(e.getValue());
    }
  }

  @ParameterizedTest(name = "{0} entries in {1} slots: over the load limit = {2}")
  @CsvSource({
    "12, 16, false",
    "13, 16, true",
    "384, 512, false",
    "385, 512, true",
    "1, 16, false",
    "0, 16, false",
  })
  void theTableGrowsPastThreeQuartersFull(int entries, int capacity, boolean over) {
    assertThat(SeriesBytesMap.overLoaded(entries, capacity)).isEqualTo(over);
  }

  /** Few distinct hashes, so collisions and long probe runs are common. */
  private static long weakHash(String k) {
    return k.length() % 5;
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Op> put =
        Combinators.combine(
                Arbitraries.strings().withChars("abcxyz{}=\"").ofMinLength(1).ofMaxLength(12),
                Arbitraries.integers().between(0, 99))
            .as((k, v) -> new Op(k, v, false));
    Arbitrary<Op> purge = Arbitraries.just(new Op("", 0, true));
    return Arbitraries.frequencyOf(Tuple.of(20, put), Tuple.of(1, purge)).list().ofMaxSize(300);
  }

  /** The keyed hash is the polynomial of the javadoc, whatever the length and offset. */
  @Test
  void checkIsThePolynomialOfSevenByteWords() {
    java.math.BigInteger p =
        java.math.BigInteger.ONE.shiftLeft(61).subtract(java.math.BigInteger.ONE);
    java.math.BigInteger k = java.math.BigInteger.valueOf(SeriesBytesMap.key());
    java.util.Random rnd = new java.util.Random(42);
    for (int len = 0; len <= 64; len++) {
      byte[] b = new byte[len + 3];
      rnd.nextBytes(b);
      java.math.BigInteger h = java.math.BigInteger.ZERO;
      for (int i = 0; i < len; i += 7) {
        long w = 0;
        for (int j = Math.min(len, i + 7) - 1; j >= i; j--) {
          w = (w << 8) | (b[3 + j] & 0xff);
        }
        h = h.multiply(k).add(java.math.BigInteger.valueOf(w)).mod(p);
      }
      h = h.multiply(k).add(java.math.BigInteger.valueOf(len)).mod(p);
      assertThat(SeriesBytesMap.check(b, 3, len)).as("length %d", len).isEqualTo(h.longValue());
    }
  }
}
