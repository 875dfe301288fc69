package dev.infermon.tsdb.chunkenc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

  /**
   * Growth with a known final length goes a quarter at a time, each step keeping the writer's
   * 9-byte slack, then to the whole plus an eighth, then by 1.5x; without one, by 1.5x.
   */
  @ParameterizedTest(name = "expected {0}: from {1} to {2}")
  @CsvSource({
    // expected, length, next
    "100,   0,  34", // the first array: a quarter (25) plus slack
    "100,  34,  59",
    "100,  59,  84",
    "100,  84, 121", // 100 + 100/8 + 9
    "100, 121, 189", // outgrown: 1.5x + 8
    "100,  40,  59", // a length off the schedule goes to the next step above it
    "2,     0,  10", // tiny: a quarter is at least one byte
    "65535, 0, 16392",
    "0,    32,  56", // not known: 1.5x + 8
    "0,    56,  92",
  })
  void grownLengthFollowsTheSchedule(int expected, int length, int next) {
    assertThat(BitWriter.grownLength(length, expected)).isEqualTo(next);
  }

  /**
   * The array length after writing n bytes into a restarted stream: a step holds its bytes as long
   * as the last write had 9 bytes of room (n + 8 <= length).
   */
  @ParameterizedTest(name = "expected {0}, {1} bytes written: array of {2}")
  @CsvSource({
    // expected, bytes written, array length
    "100,      0,  34",
    "100,     26,  34", // a quarter of the stream, and one byte more, fit the first array
    "100,     27,  59",
    "100,     51,  59",
    "100,     52,  84",
    "100,     76,  84",
    "100,     77, 121",
    "100,    113, 121", // the expected length plus its eighth
    "100,    114, 189",
    "0,        0,  32", // nothing to go by: the fallback, then 1.5x
    "0,       24,  32",
    "0,       25,  56",
    "100000,   0, 16392", // a guess past 64 KiB is taken as 64 KiB - 1
  })
  void restartedStreamGrowsInQuartersOfTheExpectedLength(int expected, int bytes, int length) {
    BitWriter w = new BitWriter();
    w.restart(expected, 32);
    for (int i = 0; i < bytes; i++) {
      w.writeByte(i);
    }
    assertThat(w.buffer()).hasSize(length);
    assertThat(w.byteLength()).isEqualTo(bytes);
  }

  @Test
  void restartTakesANewArrayAndLeavesTheOldOneAsItWas() {
    BitWriter w = new BitWriter(16);
    w.writeBits(0xABCD, 16);
    byte[] old = w.buffer();

    w.restart(40, 32);
    w.writeBits(0x1234, 16);

    assertThat(w.buffer()).isNotSameAs(old).startsWith((byte) 0x12, (byte) 0x34);
    assertThat(w.bitLength()).isEqualTo(16);
    assertThat(old).startsWith((byte) 0xAB, (byte) 0xCD);
    assertThat(Arrays.copyOfRange(old, 2, old.length)).containsOnly(0);
  }

  @Test
  void aNegativeExpectedLengthIsRefused() {
    BitWriter w = new BitWriter(8);
    assertThatThrownBy(() -> w.restart(-1, 32))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
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
