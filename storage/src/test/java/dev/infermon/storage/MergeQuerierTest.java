package dev.infermon.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.testing.FixedQuerier;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class MergeQuerierTest {
  private static final Labels A = Labels.of("__name__", "up", "pod", "a");
  private static final Labels B = Labels.of("__name__", "up", "pod", "b");
  private static final Labels C = Labels.of("__name__", "up", "pod", "c");
  private static final List<Matcher> UP = List.of(Matcher.metricName("up"));

  @Test
  void joinsSeriesWithEqualLabelsAndKeepsTheFirstQueriersSampleOnTies() {
    FixedQuerier head =
        FixedQuerier.of(Map.of(A, List.of(s(30, 3), s(40, 4)), C, List.of(s(10, 1))));
    FixedQuerier block =
        FixedQuerier.of(Map.of(A, List.of(s(10, 1), s(20, 2), s(30, 99)), B, List.of(s(5, 5))));

    Map<Labels, List<Sample>> got =
        Samples.readAll(MergeQuerier.of(List.of(head, block)).select(false, 0, 100, UP));

    assertThat(got.keySet()).containsExactly(A, B, C);
    assertThat(got.get(A)).containsExactly(s(10, 1), s(20, 2), s(30, 3), s(40, 4));
    assertThat(got.get(B)).containsExactly(s(5, 5));
  }

  @Test
  void seekOnAMergedSeriesNeverGoesBack() {
    Querier q =
        MergeQuerier.of(
            List.of(
                FixedQuerier.of(Map.of(A, List.of(s(10, 1), s(30, 3)))),
                FixedQuerier.of(Map.of(A, List.of(s(20, 2), s(40, 4))))));
    SeriesSet set = q.select(true, 0, 100, UP);
    assertThat(set.next()).isTrue();
    SampleIterator it = set.at().iterator();

    assertThat(it.seek(15)).isTrue();
    assertThat(it.timestamp()).isEqualTo(20);
    assertThat(it.seek(5)).isTrue();
    assertThat(it.timestamp()).isEqualTo(20);
    assertThat(it.next()).isTrue();
    assertThat(it.timestamp()).isEqualTo(30);
    assertThat(it.seek(41)).isFalse();
    assertThat(it.next()).isFalse();
  }

  @Test
  void labelNamesAndValuesAreTheSortedUnion() {
    Querier q =
        MergeQuerier.of(
            List.of(
                FixedQuerier.of(Map.of(B, List.of(s(1, 1)))),
                FixedQuerier.of(
                    Map.of(
                        A,
                        List.of(s(1, 1)),
                        Labels.of("__name__", "x", "zone", "z"),
                        List.of(s(1, 1))))));

    assertThat(q.labelValues("pod", 0, 10, List.of())).containsExactly("a", "b");
    assertThat(q.labelNames(0, 10, List.of())).containsExactly("__name__", "pod", "zone");
    assertThat(q.labelValues("pod", 2, 10, List.of())).isEmpty();
  }

  @Test
  void warningsOfEveryChildAreReported() {
    Querier q =
        MergeQuerier.of(
            List.of(
                FixedQuerier.withWarnings(Map.of(A, List.of(s(1, 1))), List.of("one")),
                FixedQuerier.withWarnings(Map.of(), List.of("two"))));
    SeriesSet set = q.select(true, 0, 10, UP);
    Samples.readAll(set);

    assertThat(set.warnings()).containsExactly("one", "two");
  }

  @Test
  void closeClosesEveryChildEvenWhenOneFails() {
    FixedQuerier ok = FixedQuerier.of(Map.of());
    Querier failing =
        new Querier() {
          @Override
          public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> m) {
            return SeriesSet.EMPTY;
          }

          @Override
          public List<String> labelValues(String n, long mint, long maxt, List<Matcher> m) {
            return List.of();
          }

          @Override
          public List<String> labelNames(long mint, long maxt, List<Matcher> m) {
            return List.of();
          }

          @Override
          public void close() {
            throw new IllegalStateException("boom");
          }
        };

    assertThatThrownBy(() -> MergeQuerier.of(List.of(failing, ok)).close()).hasMessage("boom");
    assertThat(ok.closed()).isTrue();
  }

  @Test
  void rejectsAnEmptyList() {
    assertThatThrownBy(() -> MergeQuerier.of(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no queriers");
  }

  /** Splitting a series' samples across queriers (with overlap) and merging gives it back. */
  @Property(tries = 200)
  void mergingSplitsGivesTheOriginal(
      @ForAll @Size(max = 60) List<@IntRange(min = 0, max = 200) Integer> times,
      @ForAll @Size(max = 60) List<@IntRange(min = 0, max = 3) Integer> owners) {
    TreeMap<Long, Sample> truth = new TreeMap<>();
    List<List<Sample>> parts = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (int i = 0; i < times.size(); i++) {
      long t = times.get(i);
      if (truth.containsKey(t)) {
        continue;
      }
      Sample sample = s(t, t * 0.5);
      truth.put(t, sample);
      int owner = i < owners.size() ? owners.get(i) : 0;
      if (owner == 3) { // in every part: must come out once
        parts.forEach(p -> p.add(sample));
      } else {
        parts.get(owner).add(sample);
      }
    }
    List<Querier> qs = new ArrayList<>();
    for (List<Sample> p : parts) {
      p.sort((x, y) -> Long.compare(x.t(), y.t()));
      qs.add(FixedQuerier.of(p.isEmpty() ? Map.of() : Map.of(A, p)));
    }

    Map<Labels, List<Sample>> got = Samples.readAll(MergeQuerier.of(qs).select(true, 0, 1000, UP));

    assertThat(got.getOrDefault(A, List.of())).containsExactlyElementsOf(truth.values());
  }

  @Test
  void aSingleChildInRangeAnswersAloneInTheOrderAsked() {
    Ranged live = new Ranged(FixedQuerier.of(Map.of(A, List.of(s(50, 1)))), 0, 100);
    Ranged early = new Ranged(FixedQuerier.of(Map.of(B, List.of(s(-50, 2)))), -100, -1);
    Querier q = MergeQuerier.of(List.of(live, early));

    Map<Labels, List<Sample>> got = Samples.readAll(q.select(false, 10, 60, UP));

    assertThat(got).containsExactlyEntriesOf(Map.of(A, List.of(s(50, 1))));
    assertThat(live.asked).containsExactly(false);
    assertThat(early.asked).isEmpty();
    assertThat(q.mayHaveSamplesIn(10, 60)).isTrue();
    assertThat(q.mayHaveSamplesIn(200, 300)).isFalse();
  }

  @Test
  void childrenInRangeAreMergedSortedAndTheOthersNotAsked() {
    Ranged head = new Ranged(FixedQuerier.of(Map.of(C, List.of(s(70, 3)))), 60, 100);
    Ranged block = new Ranged(FixedQuerier.of(Map.of(A, List.of(s(30, 1)))), 0, 59);
    Ranged old = new Ranged(FixedQuerier.of(Map.of(B, List.of(s(-50, 2)))), -100, -1);

    Map<Labels, List<Sample>> got =
        Samples.readAll(MergeQuerier.of(List.of(head, block, old)).select(false, 0, 100, UP));

    assertThat(new ArrayList<>(got.keySet())).containsExactly(A, C);
    assertThat(head.asked).containsExactly(true);
    assertThat(block.asked).containsExactly(true);
    assertThat(old.asked).isEmpty();
  }

  @Test
  void withNoChildInRangeTheFirstStillAnswers() {
    Ranged first = new Ranged(FixedQuerier.of(Map.of(A, List.of(s(50, 1)))), 0, 100);
    Ranged second = new Ranged(FixedQuerier.of(Map.of(B, List.of(s(150, 2)))), 101, 200);

    SeriesSet set = MergeQuerier.of(List.of(first, second)).select(true, 300, 400, UP);

    assertThat(set.next()).isFalse();
    assertThat(first.asked).containsExactly(true);
    assertThat(second.asked).isEmpty();
  }

  /** A child with a time range that records the order every select asked it for. */
  private static final class Ranged implements Querier {
    private final Querier data;
    private final long min;
    private final long max;
    final List<Boolean> asked = new ArrayList<>();

    Ranged(Querier data, long min, long max) {
      this.data = data;
      this.min = min;
      this.max = max;
    }

    @Override
    public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
      asked.add(sorted);
      return data.select(sorted, mint, maxt, matchers);
    }

    @Override
    public boolean mayHaveSamplesIn(long mint, long maxt) {
      return mint <= max && min <= maxt;
    }

    @Override
    public List<String> labelValues(String name, long mint, long maxt, List<Matcher> m) {
      return data.labelValues(name, mint, maxt, m);
    }

    @Override
    public List<String> labelNames(long mint, long maxt, List<Matcher> m) {
      return data.labelNames(mint, maxt, m);
    }

    @Override
    public void close() {
      data.close();
    }
  }

  private static Sample s(long t, double v) {
    return Sample.of(t, v);
  }
}
