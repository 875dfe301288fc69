package dev.infermon.tsdb.chunkenc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.value.StaleNaN;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class XorChunkTest {
  record Sample(long t, long bits) {
    double v() {
      return Double.longBitsToDouble(bits);
    }
  }

  // Value bit patterns that matter: special floats, NaN payloads, and ordinary doubles.
  private static final long[] SPECIAL_BITS = {
    StaleNaN.BITS,
    Double.doubleToRawLongBits(Double.NaN),
    0x7ff8000000000001L, // another NaN payload
    Double.doubleToRawLongBits(Double.POSITIVE_INFINITY),
    Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY),
    Double.doubleToRawLongBits(0.0),
    Double.doubleToRawLongBits(-0.0),
    Double.doubleToRawLongBits(Double.MIN_VALUE),
    Double.doubleToRawLongBits(Double.MAX_VALUE),
  };

  @Provide
  Arbitrary<List<Sample>> series() {
    Arbitrary<Long> firstT = Arbitraries.longs().between(-(1L << 50), 1L << 50);
    // Mostly regular steps with jitter, sometimes huge gaps: every dod bucket gets hit.
    Arbitrary<Long> step =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just(15_000L)),
            Tuple.of(3, Arbitraries.longs().between(1, 20_000)),
            Tuple.of(1, Arbitraries.longs().between(1, 1L << 40)));
    Arbitrary<Long> bits =
        Arbitraries.frequencyOf(
            Tuple.of(
                3,
                Arbitraries.of(SPECIAL_BITS[0], SPECIAL_BITS[1], SPECIAL_BITS[2], SPECIAL_BITS[3])),
            Tuple.of(
                1,
                Arbitraries.of(SPECIAL_BITS[4], SPECIAL_BITS[5], SPECIAL_BITS[6], SPECIAL_BITS[7])),
            Tuple.of(4, Arbitraries.doubles().between(-1e6, 1e6).map(Double::doubleToRawLongBits)),
            Tuple.of(
                2, Arbitraries.integers().between(0, 50).map(i -> Double.doubleToRawLongBits(i))),
            Tuple.of(1, Arbitraries.longs()));
    return Combinators.combine(firstT, step.list().ofMaxSize(300), bits.list().ofSize(301))
        .as(
            (t0, steps, values) -> {
              List<Sample> out = new ArrayList<>();
              long t = t0;
              out.add(new Sample(t, values.get(0)));
              for (int i = 0; i < steps.size(); i++) {
                t += steps.get(i);
                out.add(new Sample(t, values.get(i + 1)));
              }
              return out;
            });
  }

  @Property(tries = 300)
  void everySampleRoundTripsBitForBit(@ForAll("series") List<Sample> samples) {
    XorChunk c = chunkOf(samples);

    assertThat(decode(c.bytes())).containsExactlyElementsOf(samples);
    assertThat(c.numSamples()).isEqualTo(samples.size());
    assertThat(c.minTime()).isEqualTo(samples.get(0).t());
    assertThat(c.maxTime()).isEqualTo(samples.get(samples.size() - 1).t());
  }

  @Property(tries = 200)
  void reopenedChunkContinuesTheSameStream(
      @ForAll("series") List<Sample> samples, @ForAll @IntRange(min = 0, max = 300) int cut) {
    int k = Math.min(cut, samples.size());
    byte[] prefix = chunkOf(samples.subList(0, k)).bytes();
    byte[] padded = new byte[prefix.length + 7];
    System.arraycopy(prefix, 0, padded, 3, prefix.length);

    XorChunk reopened = XorChunk.open(padded, 3, prefix.length);
    for (Sample s : samples.subList(k, samples.size())) {
      reopened.append(s.t(), s.v());
    }

    assertThat(decode(reopened.bytes())).containsExactlyElementsOf(samples);
  }

  @Property(tries = 200)
  void seekLandsOnTheFirstSampleAtOrAfterTarget(
      @ForAll("series") List<Sample> samples, @ForAll @IntRange(min = 0, max = 300) int pick) {
    Sample target = samples.get(Math.min(pick, samples.size() - 1));
    XorIterator it = chunkOf(samples).iterator();

    assertThat(it.seek(target.t() - 1)).isTrue();
    assertThat(it.timestamp()).isLessThanOrEqualTo(target.t());
    assertThat(it.seek(target.t())).isTrue();
    assertThat(new Sample(it.timestamp(), Double.doubleToRawLongBits(it.value())))
        .isEqualTo(target);
    // Never backwards.
    assertThat(it.seek(Long.MIN_VALUE)).isTrue();
    assertThat(it.timestamp()).isEqualTo(target.t());
    assertThat(it.seek(samples.get(samples.size() - 1).t() + 1)).isFalse();
  }

  /**
   * Seeks and batches (which decode on the fast path away from the array's end) read exactly what
   * the model of a list of samples says, under random walks of steps, seeks and batches, with the
   * chunk between other bytes in a larger array as in the head's and the blocks' arrays.
   */
  @Property(tries = 300)
  void seeksBatchesAndStepsReadTheSamplesInOrder(
      @ForAll("series") List<Sample> samples,
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 40) int trailing) {
    java.util.Random r = new java.util.Random(seed);
    byte[] chunk = chunkOf(samples).bytes();
    byte[] array = new byte[3 + chunk.length + trailing];
    r.nextBytes(array);
    System.arraycopy(chunk, 0, array, 3, chunk.length);
    XorIterator it = XorIterator.over(array, 3, chunk.length);
    int pos = -1; // the model: index of the current sample
    int n = samples.size();
    for (int op = 0; op < 40; op++) {
      long t =
          r.nextInt(10) == 0
              ? (r.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE)
              : samples.get(r.nextInt(n)).t() + r.nextInt(3) - 1;
      int kind = r.nextInt(3);
      if (kind == 0) {
        pos = Math.min(pos + 1, n);
        assertThat(it.next()).isEqualTo(pos < n);
      } else if (kind == 1) {
        if (pos < 0) {
          pos = 0;
        }
        while (pos < n && samples.get(pos).t() < t) {
          pos++;
        }
        assertThat(it.seek(t)).as("seek(%d)", t).isEqualTo(pos < n);
      } else {
        int len = new int[] {1, 2, 3, 7, 64, 500}[r.nextInt(6)];
        long[] ts = new long[len + 2];
        double[] vs = new double[len + 2];
        int want = len;
        List<Sample> wantStored = new ArrayList<>();
        for (int k = 0; k < len; k++) {
          pos = Math.min(pos + 1, n);
          if (pos == n) {
            want = ~k;
            break;
          }
          if (samples.get(pos).t() > t) {
            want = k;
            break;
          }
          wantStored.add(samples.get(pos));
        }
        int got = it.nextBatch(ts, vs, 1, len, t);
        assertThat(got).as("nextBatch(%d, %d)", len, t).isEqualTo(want);
        List<Sample> stored = new ArrayList<>();
        for (int k = 0; k < (got < 0 ? ~got : got); k++) {
          stored.add(new Sample(ts[1 + k], Double.doubleToRawLongBits(vs[1 + k])));
        }
        assertThat(stored).containsExactlyElementsOf(wantStored);
        assertThat(ts[0]).isZero();
        assertThat(ts[len + 1]).isZero();
      }
      if (pos == n) {
        break; // after the end the seam leaves the iterator's answers open
      }
      if (pos >= 0) {
        assertThat(new Sample(it.timestamp(), Double.doubleToRawLongBits(it.value())))
            .isEqualTo(samples.get(pos));
      }
    }
  }

  @Test
  void aStreamCutShortIsCaughtWhenSeekingAndBatching() {
    XorChunk c = XorChunk.create();
    for (int i = 0; i < 200; i++) {
      c.append(i * 15_000L + (i % 3), i * 1.5);
    }
    byte[] b = c.bytes();

    assertThatThrownBy(() -> XorIterator.over(b, 0, b.length / 2).seek(Long.MAX_VALUE))
        .isInstanceOf(CorruptChunkException.class)
        .hasMessageContaining("ends early");
    assertThatThrownBy(
            () ->
                XorIterator.over(b, 0, b.length / 2)
                    .nextBatch(new long[300], new double[300], 0, 300, Long.MAX_VALUE))
        .isInstanceOf(CorruptChunkException.class)
        .hasMessageContaining("ends early");
  }

  @Test
  void matchesPrometheusBytesForAKnownSeries() {
    // Golden bytes worked out by hand from xor.go's rules: header 0003; zigzag varint(1000) = d0
    // 0f;
    // 64 bits of 1.0; uvarint delta 15000 = 98 75; then the bits in tail().
    XorChunk c = XorChunk.create();
    c.append(1000, 1.0);
    c.append(16000, 1.0);
    c.append(31000, 2.0);

    assertThat(HexFormat.of().formatHex(c.bytes()))
        .isEqualTo("0003d00f3ff00000000000009875" + tail());
  }

  private static String tail() {
    // Second value unchanged '0'; third dod '0'; xor(1.0, 2.0) = 0x7ff0000000000000 has 1 leading
    // and 52 trailing zeros: '1' changed, '1' new window, lead 00001, 11 significant bits 001011.
    String bits = "0" + "0" + "1" + "1" + "00001" + "001011" + "11111111111";
    while (bits.length() % 8 != 0) {
      bits += "0";
    }
    StringBuilder hex = new StringBuilder();
    for (int i = 0; i < bits.length(); i += 8) {
      hex.append(String.format("%02x", Integer.parseInt(bits.substring(i, i + 8), 2)));
    }
    return hex.toString();
  }

  /**
   * A chunk written by Prometheus 2.42 itself ({@code promtool tsdb create-blocks-from openmetrics}
   * on the .om file beside it; the chunk's data bytes cut out of the block's chunk file): our
   * iterator reads the samples that went in, and re-encoding them gives the same bytes.
   */
  @Test
  void readsAndReproducesAChunkWrittenByPrometheus() throws Exception {
    byte[] prom = HexFormat.of().parseHex(resource("prometheus-2.42-golden.chunk.hex").trim());
    List<Sample> input = new ArrayList<>();
    for (String line : resource("prometheus-2.42-golden.om").split("\n")) {
      if (line.startsWith("golden ")) {
        String[] f = line.split(" ");
        long t = new java.math.BigDecimal(f[2]).movePointRight(3).longValueExact();
        double v =
            f[1].equals("+Inf")
                ? Double.POSITIVE_INFINITY
                : f[1].equals("-Inf") ? Double.NEGATIVE_INFINITY : Double.parseDouble(f[1]);
        input.add(new Sample(t, Double.doubleToRawLongBits(v)));
      }
    }

    List<Sample> decoded = decode(prom);

    assertThat(decoded).hasSize(100);
    for (int i = 0; i < input.size(); i++) {
      Sample want = input.get(i);
      Sample got = decoded.get(i);
      assertThat(got.t()).isEqualTo(want.t());
      if (Double.isNaN(want.v())) {
        assertThat(got.v()).isNaN(); // Go's NaN has payload 1: compare as NaN
      } else {
        assertThat(got.bits()).isEqualTo(want.bits());
      }
    }
    assertThat(chunkOf(decoded).bytes()).isEqualTo(prom);
  }

  private static String resource(String name) throws java.io.IOException {
    try (var in = XorChunkTest.class.getResourceAsStream("/chunkenc/" + name)) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  @Test
  void staleMarkerAndOrdinaryNanStayDistinct() {
    XorChunk c = XorChunk.create();
    c.append(1, Double.NaN);
    c.append(2, StaleNaN.VALUE);
    c.append(3, Double.NaN);

    List<Sample> got = decode(c.bytes());

    assertThat(got).extracting(s -> StaleNaN.is(s.v())).containsExactly(false, true, false);
    assertThat(got).allMatch(s -> Double.isNaN(s.v()));
  }

  @Test
  void rejectsTimesThatDoNotIncrease() {
    XorChunk c = XorChunk.create();
    c.append(10, 1);

    assertThatThrownBy(() -> c.append(10, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("10 after 10");
    assertThat(c.numSamples()).isEqualTo(1);
  }

  @Test
  void truncatedBytesRaiseCorruptChunk() {
    XorChunk c = XorChunk.create();
    for (int i = 0; i < 50; i++) {
      c.append(i * 15_000L + (i % 3), i * 1.5);
    }
    byte[] b = c.bytes();
    XorIterator it = XorIterator.over(b, 0, b.length / 2);

    assertThatThrownBy(
            () -> {
              while (it.next()) {
                // drain
              }
            })
        .isInstanceOf(CorruptChunkException.class)
        .hasMessageContaining("ends early");
    assertThatThrownBy(() -> XorIterator.over(b, 0, 1)).isInstanceOf(CorruptChunkException.class);
    assertThatThrownBy(() -> XorIterator.over(b, 5, b.length))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void regularScrapesCompressToAboutOneBytePerSample() {
    // 120 samples 15 s apart of a slowly growing counter: dod 0, small XORs.
    XorChunk c = XorChunk.create();
    double v = 1000;
    for (int i = 0; i < XorChunk.TARGET_SAMPLES; i++) {
      v += (i % 4 == 0) ? 1 : 0;
      c.append(1_700_000_000_000L + i * 15_000L, v);
    }
    assertThat((double) c.length() / c.numSamples()).isLessThan(1.5);
  }

  private static XorChunk chunkOf(List<Sample> samples) {
    XorChunk c = XorChunk.create();
    for (Sample s : samples) {
      c.append(s.t(), s.v());
    }
    return c;
  }

  private static List<Sample> decode(byte[] b) {
    XorIterator it = XorIterator.over(b, 0, b.length);
    List<Sample> out = new ArrayList<>();
    while (it.next()) {
      out.add(new Sample(it.timestamp(), Double.doubleToRawLongBits(it.value())));
    }
    assertThat(out).hasSize(it.numSamples());
    return out;
  }

  /** What the head's series does: keeps a chunk in its own object and starts it over. */
  private static final class InPlace extends XorChunk {
    void startOver(int expectedBytes) {
      restart(expectedBytes);
    }

    void drop() {
      clear();
    }
  }

  @Property(tries = 200)
  void aRestartedChunkEncodesAsAFreshOneAndLeavesTheOldArrayReadable(
      @ForAll("series") List<Sample> before,
      @ForAll("series") List<Sample> after,
      @ForAll @IntRange(min = 0, max = 5000) int expectedBytes) {
    InPlace c = new InPlace();
    c.startOver(0);
    for (Sample s : before) {
      c.append(s.t(), s.v());
    }
    byte[] old = c.snapshotBuffer();
    int oldLength = c.length();
    int oldCount = c.numSamples();

    c.startOver(expectedBytes);
    for (Sample s : after) {
      c.append(s.t(), s.v());
    }

    XorChunk fresh = chunkOf(after);
    assertThat(c.bytes()).isEqualTo(fresh.bytes());
    assertThat(c.numSamples()).isEqualTo(fresh.numSamples());
    assertThat(c.minTime()).isEqualTo(fresh.minTime());
    assertThat(c.maxTime()).isEqualTo(fresh.maxTime());
    assertThat(Double.doubleToRawLongBits(c.lastValue()))
        .isEqualTo(Double.doubleToRawLongBits(fresh.lastValue()));
    assertThat(c.snapshotBuffer()).isNotSameAs(old);
    // What a snapshot taken before the restart holds still decodes to the samples it had.
    XorIterator it = XorIterator.over(old, 0, oldLength, oldCount);
    List<Sample> got = new ArrayList<>();
    while (it.next()) {
      got.add(new Sample(it.timestamp(), Double.doubleToRawLongBits(it.value())));
    }
    assertThat(got).containsExactlyElementsOf(before);
  }

  @Test
  void aClearedChunkHoldsNothingUntilRestarted() {
    InPlace c = new InPlace();
    assertThat(c.numSamples()).isZero();
    assertThat(c.snapshotBuffer()).isNull();
    c.startOver(0);
    c.append(5_000, 1.5);
    c.append(10_000, 2.5);

    c.drop();

    assertThat(c.numSamples()).isZero();
    assertThat(c.length()).isZero();
    assertThat(c.snapshotBuffer()).isNull();
    assertThat(c.minTime()).isEqualTo(Long.MIN_VALUE);
    assertThat(c.maxTime()).isEqualTo(Long.MIN_VALUE);
    c.startOver(0);
    c.append(1_000, 7); // earlier than before the clear: nothing of the old chunk is left
    assertThat(c.bytes()).isEqualTo(chunkOf(List.of(new Sample(1_000, bits(7)))).bytes());
  }

  /**
   * A chunk restarted with the length of a like chunk before it holds a quarter, a half, three
   * quarters, then all of that length plus an eighth: four arrays, never a 1.5x step.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // shape, samples
    "counter, 120",
    "gauge, 120",
    "gauge, 240",
    "counter, 30",
  })
  void aChunkAsLongAsTheLastGrowsInQuarters(String shape, int samples) {
    List<Sample> like = new ArrayList<>();
    for (int i = 0; i < samples; i++) {
      long t = 1_700_000_000_000L + i * 15_000L + (i % 5 == 0 ? 7 : 0);
      double v = shape.equals("counter") ? 1000 + i / 4 : Math.sin(i / 10.0) * 1e3;
      like.add(new Sample(t, bits(v)));
    }
    int expected = chunkOf(like).length();
    int quarter = expected / 4;

    InPlace c = new InPlace();
    c.startOver(expected);
    Set<Integer> sizes = new TreeSet<>();
    sizes.add(c.snapshotBuffer().length);
    for (Sample s : like) {
      c.append(s.t(), s.v());
      sizes.add(c.snapshotBuffer().length);
    }

    assertThat(c.bytes()).isEqualTo(chunkOf(like).bytes());
    assertThat(sizes)
        .containsExactly(
            quarter + 9, 2 * quarter + 9, 3 * quarter + 9, expected + expected / 8 + 9);
  }

  private static long bits(double v) {
    return Double.doubleToRawLongBits(v);
  }
}
