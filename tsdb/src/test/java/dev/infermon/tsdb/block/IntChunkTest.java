package dev.infermon.tsdb.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.value.StaleNaN;
import dev.infermon.tsdb.encoding.CorruptDataException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class IntChunkTest {
  /** Values, and the decimal scale chosen (-1: not representable, the chunk stays XOR). */
  static Stream<Arguments> scales() {
    return Stream.of(
        Arguments.of(new double[] {0, 1, 2, 1e15}, 0),
        Arguments.of(new double[] {12345.67, 0.01}, 2),
        Arguments.of(new double[] {0.25, 0.5}, 2),
        Arguments.of(new double[] {0.123456}, 6),
        Arguments.of(new double[] {-3e-6}, 6),
        Arguments.of(new double[] {0.1234567}, -1),
        Arguments.of(new double[] {1, Double.NaN}, -1),
        Arguments.of(new double[] {1, StaleNaN.VALUE}, -1),
        Arguments.of(new double[] {Double.POSITIVE_INFINITY}, -1),
        Arguments.of(new double[] {-0.0}, -1),
        Arguments.of(new double[] {0x1p53}, -1),
        Arguments.of(new double[] {1.0 / 3}, -1));
  }

  @ParameterizedTest
  @MethodSource("scales")
  void picksTheSmallestExactDecimalScale(double[] values, int scale) {
    assertThat(IntChunk.scaleOf(values, values.length)).isEqualTo(scale);
  }

  @Property(tries = 300)
  void everyRepresentableChunkDecodesToTheSameBitsAndTimes(
      @ForAll("timestamps") long[] ts, @ForAll("scaledValues") List<Double> values) {
    int n = Math.min(ts.length, values.size());
    double[] vs = new double[n];
    for (int i = 0; i < n; i++) {
      vs[i] = values.get(i);
    }
    byte[] enc = IntChunk.encode(ts, vs, n);
    assertThat(enc).as("decimal values with at most 3 digits are representable").isNotNull();
    IntChunk.Iterator it = new IntChunk.Iterator();
    it.reset(enc, enc.length);
    List<String> got = new ArrayList<>();
    while (it.next()) {
      got.add(it.timestamp() + "=" + Double.doubleToRawLongBits(it.value()));
    }
    List<String> want = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      want.add(ts[i] + "=" + Double.doubleToRawLongBits(vs[i]));
    }
    assertThat(got).isEqualTo(want);
  }

  /**
   * Every timestamp bucket (0, 14, 17, 20, 64 bits) and every value width decodes back, and every
   * truncation of the chunk raises {@link CorruptDataException}: the decoder reads prefixes and
   * fields from a bit window, and must notice where the stream ends inside either.
   */
  @Test
  void everyBucketRoundTripsAndEveryTruncationIsCorrupt() {
    long[] gaps = {15_000, 15_000, 15_000, 16_000, 20_000, 80_000, 500_000, 1L << 40, 15_000};
    long[] dods = {0, 5, -60, 400, -7_000, 300_000, -1L << 25, 1L << 40, 3, 0, 0};
    int n = dods.length + 1;
    long[] ts = new long[n];
    double[] vs = new double[n];
    long t = 1_000;
    long v = 0;
    long d = 0;
    for (int i = 0; i < n; i++) {
      t += gaps[i % gaps.length];
      ts[i] = t;
      vs[i] = v / 100.0;
      if (i < dods.length) {
        d += dods[i];
        v += d;
      }
    }
    byte[] enc = IntChunk.encode(ts, vs, n);
    assertThat(enc).isNotNull();
    IntChunk.Iterator it = new IntChunk.Iterator();
    it.reset(enc, enc.length);
    for (int i = 0; i < n; i++) {
      assertThat(it.next()).isTrue();
      assertThat(it.timestamp()).isEqualTo(ts[i]);
      assertThat(Double.doubleToRawLongBits(it.value()))
          .as("value %d", i)
          .isEqualTo(Double.doubleToRawLongBits(vs[i]));
    }
    assertThat(it.next()).isFalse();
    for (int len = 3; len < enc.length; len++) {
      IntChunk.Iterator cut = new IntChunk.Iterator();
      cut.reset(enc, len);
      assertThatThrownBy(
              () -> {
                while (cut.next()) {
                  // drain
                }
              })
          .as("truncated to %d of %d bytes", len, enc.length)
          .isInstanceOf(CorruptDataException.class)
          .hasMessageContaining("ends early");
    }
  }

  @Provide
  Arbitrary<long[]> timestamps() {
    return Arbitraries.longs()
        .between(1, 1L << 40)
        .array(long[].class)
        .ofMinSize(1)
        .ofMaxSize(200)
        .map(
            gaps -> {
              long[] ts = new long[gaps.length];
              long t = -5_000_000_000L;
              for (int i = 0; i < gaps.length; i++) {
                t += gaps[i] % 3 == 0 ? 15_000 : gaps[i] % 100_000 + 1;
                ts[i] = t;
              }
              return ts;
            });
  }

  @Provide
  Arbitrary<List<Double>> scaledValues() {
    return Arbitraries.longs()
        .between(-(1L << 50), 1L << 50)
        .map(x -> (x % 7 == 0 ? x : x % 100_000) / 1000.0)
        .filter(v -> Double.doubleToRawLongBits(v) != Double.doubleToRawLongBits(-0.0))
        .list()
        .ofMinSize(200)
        .ofMaxSize(200);
  }
}
