package dev.infermon.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The chain iterator against a reference merge: a sorted map filled source by source, where the
 * first source to hold a timestamp keeps it. Values name their source ({@code source * 1000 + t}),
 * so a wrong winner on a shared timestamp shows.
 */
class ChainSampleIteratorTest {

  @Test
  void blocksThenHeadComeOutInOrder() {
    SampleIterator it = chain(List.of(List.of(1L, 2L), List.of(3L, 4L), List.of(5L)));

    assertThat(Samples.drain(it))
        .containsExactly(
            Sample.of(1, 1),
            Sample.of(2, 2),
            Sample.of(3, 1003),
            Sample.of(4, 1004),
            Sample.of(5, 2005));
  }

  @Test
  void sharedTimestampsComeOutOnceFromTheFirstSource() {
    SampleIterator it = chain(List.of(List.of(2L, 4L), List.of(1L, 2L, 3L, 4L, 5L)));

    assertThat(Samples.drain(it))
        .containsExactly(
            Sample.of(1, 1001),
            Sample.of(2, 2),
            Sample.of(3, 1003),
            Sample.of(4, 4),
            Sample.of(5, 1005));
  }

  @Test
  void seekNeverGoesBackAndStopsAtTheEnd() {
    SampleIterator it = chain(List.of(List.of(10L, 20L), List.of(30L)));

    assertThat(it.seek(15)).isTrue();
    assertThat(it.timestamp()).isEqualTo(20);
    assertThat(it.seek(5)).isTrue();
    assertThat(it.timestamp()).isEqualTo(20);
    assertThat(it.seek(31)).isFalse();
    assertThat(it.next()).isFalse();
  }

  @Test
  void readingBeforeTheFirstSampleFails() {
    SampleIterator it = chain(List.of(List.of(1L), List.of(2L)));

    assertThatThrownBy(it::timestamp).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(it::value).isInstanceOf(IllegalStateException.class);
  }

  /**
   * Random sources, overlapping or in disjoint time ranges (older blocks then the head), walked by
   * a random mix of next and seek: every step agrees with the reference.
   */
  @Property(tries = 300)
  void agreesWithAReferenceMerge(
      @ForAll @Size(min = 1, max = 4)
          List<@Size(max = 30) List<@IntRange(min = 0, max = 69) Integer>> sources,
      @ForAll boolean disjoint,
      @ForAll @Size(max = 60) List<@IntRange(min = -80, max = 290) Integer> ops) {
    List<List<Long>> times = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      TreeSet<Long> sorted = new TreeSet<>();
      for (int t : sources.get(s)) {
        sorted.add(disjoint ? s * 70L + t : t);
      }
      times.add(List.copyOf(sorted));
    }
    List<Sample> ref = reference(times);
    SampleIterator it = chain(times);

    int pos = -1; // the reference cursor: -1 before the start, ref.size() past the end
    for (int op : ops) {
      boolean ok;
      if (op < 0) {
        ok = it.next();
        pos = Math.min(pos + 1, ref.size());
      } else {
        ok = it.seek(op);
        if (pos < 0 || (pos < ref.size() && ref.get(pos).t() < op)) {
          pos = Math.max(pos, 0);
          while (pos < ref.size() && ref.get(pos).t() < op) {
            pos++;
          }
        }
      }
      assertThat(ok).as("op %d at reference position %d", op, pos).isEqualTo(pos < ref.size());
      if (ok) {
        assertThat(Sample.of(it.timestamp(), it.value())).isEqualTo(ref.get(pos));
      }
    }
  }

  /**
   * {@code nextBatch} on the chain (runs handed to one source while it stays ahead of the others)
   * reads what the interface's one-{@code next()}-at-a-time version reads and leaves the chain in
   * the same place, with overlapping and disjoint sources, between steps and seeks.
   */
  @Property(tries = 500)
  void nextBatchAgreesWithNext(
      @ForAll @Size(min = 1, max = 4)
          List<@Size(max = 30) List<@IntRange(min = 0, max = 69) Integer>> sources,
      @ForAll boolean disjoint,
      @ForAll @Size(max = 40) List<@IntRange(min = 0, max = 2999) Integer> ops) {
    List<List<Long>> times = new ArrayList<>();
    for (int s = 0; s < sources.size(); s++) {
      TreeSet<Long> sorted = new TreeSet<>();
      for (int t : sources.get(s)) {
        sorted.add(disjoint ? s * 70L + t : t);
      }
      times.add(List.copyOf(sorted));
    }
    SampleIterator batched = chain(times);
    SampleIterator plain = Samples.oneByOne(chain(times));
    StringBuilder got = new StringBuilder();
    StringBuilder want = new StringBuilder();
    int[] lens = {1, 2, 3, 5, 8, 13, 100, 1000};
    for (int op : ops) {
      long arg = op / 10 - 10; // a time from before the first to after the last
      switch (op % 10) {
        case 0:
          got.append(step(batched, batched.next()));
          want.append(step(plain, plain.next()));
          break;
        case 1:
          got.append(step(batched, batched.seek(arg)));
          want.append(step(plain, plain.seek(arg)));
          break;
        default:
          int len = lens[op % 10 - 2];
          got.append(batch(batched, len, arg));
          want.append(batch(plain, len, arg));
      }
      got.append('\n');
      want.append('\n');
    }
    assertThat(got.toString()).isEqualTo(want.toString());
  }

  private static String step(SampleIterator it, boolean ok) {
    return ok ? it.timestamp() + "=" + it.value() : "none";
  }

  private static String batch(SampleIterator it, int len, long maxt) {
    long[] ts = new long[len];
    double[] vs = new double[len];
    int r = it.nextBatch(ts, vs, 0, len, maxt);
    StringBuilder sb = new StringBuilder("batch(" + len + ", " + maxt + ") = " + r);
    for (int i = 0; i < (r < 0 ? ~r : r); i++) {
      sb.append(' ').append(ts[i]).append('=').append(vs[i]);
    }
    return sb.toString();
  }

  private static List<Sample> reference(List<List<Long>> times) {
    TreeMap<Long, Sample> merged = new TreeMap<>();
    for (int s = 0; s < times.size(); s++) {
      for (long t : times.get(s)) {
        merged.putIfAbsent(t, Sample.of(t, s * 1000 + t));
      }
    }
    return List.copyOf(merged.values());
  }

  private static SampleIterator chain(List<List<Long>> times) {
    SampleIterator[] its = new SampleIterator[times.size()];
    for (int s = 0; s < its.length; s++) {
      its[s] = new ListIterator(times.get(s), s * 1000);
    }
    return new ChainSampleIterator(its);
  }

  /** The simplest correct iterator over sorted timestamps; value = offset + t. */
  private static final class ListIterator implements SampleIterator {
    private final List<Long> ts;
    private final int offset;
    private int i = -1;

    ListIterator(List<Long> ts, int offset) {
      this.ts = ts;
      this.offset = offset;
    }

    @Override
    public boolean next() {
      i = Math.min(i + 1, ts.size());
      return i < ts.size();
    }

    @Override
    public boolean seek(long t) {
      i = Math.max(i, 0);
      while (i < ts.size() && ts.get(i) < t) {
        i++;
      }
      return i < ts.size();
    }

    @Override
    public long timestamp() {
      return ts.get(i);
    }

    @Override
    public double value() {
      return offset + ts.get(i);
    }
  }
}
