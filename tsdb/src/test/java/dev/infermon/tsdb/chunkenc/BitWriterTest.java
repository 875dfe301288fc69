package dev.infermon.tsdb.chunkenc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The word-at-a-time writer against the definition: bit by bit, most significant first. */
class BitWriterTest {
  record Field(long v, int n) {}

  @Test
  void fieldsAcrossByteAndWordBoundariesLandMostSignificantBitFirst() {
    BitWriter w = new BitWriter(1);
    w.writeBits(0b101, 3);
    w.writeBits(-1L, 64); // straddles the 64-bit word that starts at byte 0
    w.writeBit(false);
    w.writeBits(0xABCD, 16);

    byte[] got = Arrays.copyOf(w.buffer(), w.byteLength());

    assertThat(w.bitLength()).isEqualTo(84);
    // 101 | 64 ones | 0 | 1010 1011 1100 1101 | zero padding
    assertThat(got)
        .containsExactly(0xBF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEA, 0xBC, 0xD0);
  }

  @Property(tries = 300)
  void matchesBitByBitWriting(@ForAll("fields") List<Field> fields) {
    BitWriter fast = new BitWriter(1);
    BitWriter slow = new BitWriter(1);
    for (Field f : fields) {
      fast.writeBits(f.v(), f.n());
      for (int i = f.n() - 1; i >= 0; i--) {
        slow.writeBit(((f.v() >>> i) & 1) != 0);
      }
    }
    assertThat(fast.bitLength()).isEqualTo(slow.bitLength());
    assertThat(Arrays.copyOf(fast.buffer(), fast.byteLength()))
        .isEqualTo(Arrays.copyOf(slow.buffer(), slow.byteLength()));
    // Bits past the write position stay zero, which later writes rely on.
    for (int i = fast.byteLength(); i < fast.buffer().length; i++) {
      assertThat(fast.buffer()[i]).isZero();
    }
  }

  @Provide
  Arbitrary<List<Field>> fields() {
    // High bits above n are set on purpose: the writer must ignore them.
    Arbitrary<Field> field =
        Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(0, 64))
            .as(Field::new);
    return field.list().ofMaxSize(60);
  }
}
