package dev.infermon.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.testing.MemoryStorage;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * What shared selects read and keep: answers equal the storage's own while samples after the final
 * part are appended (and new series created) between selects, the final part is read from the
 * storage once, a matcher set is kept until its last expected select, and the budget and close
 * bound what is held.
 */
class SharedSelectsTest {
  private static final Labels A = Labels.of("__name__", "up", "pod", "a");
  private static final Labels B = Labels.of("__name__", "up", "pod", "b");
  private static final Labels C = Labels.of("__name__", "up", "pod", "c");
  private static final List<Matcher> UP = List.of(Matcher.metricName("up"));
  private static final long FINAL = 59_000; // samples at 0..59 s are final

  private final MemoryStorage memory = new MemoryStorage();
  private final Counting counting = new Counting(memory);

  SharedSelectsTest() {
    append(0, 100, A, B); // 0..99 s
  }

  @Test
  void answersAsTheStorageWhileSamplesAndSeriesAreAppendedAfterTheFinalPart() {
    SharedSelects shared = SharedSelects.over(counting, FINAL, Long.MAX_VALUE);
    for (int round = 0; round < 4; round++) {
      long before = counting.samples.sum();
      Map<Labels, List<Sample>> got = read(shared, 10_000, 1_000_000);
      long read = counting.samples.sum() - before;
      assertThat(got).as("round %d", round).isEqualTo(read(memory, 10_000, 1_000_000));
      if (round == 0) {
        assertThat(read).as("the first select reads everything").isEqualTo(2 * 90);
      } else {
        // the final part (10..59 s) comes from memory: each series' samples after it, landed on by
        // one seek and then one by one, and C's own
        long after = counting.samplesAfter(FINAL);
        assertThat(read).as("round %d", round).isEqualTo(after);
      }
      append(100 + round * 10, 10, A, B, C); // appends after the final part, C new in round 0
    }
    assertThat(shared.reusedSamples()).isEqualTo(3 * 2 * 50);
  }

  @Test
  void aSelectEndingInTheFinalPartReadsNothingTwice() {
    SharedSelects shared = SharedSelects.over(counting, FINAL, Long.MAX_VALUE);
    read(shared, 0, 30_000);
    long before = counting.samples.sum();
    assertThat(read(shared, 0, 30_000)).isEqualTo(read(memory, 0, 30_000));
    assertThat(counting.samples.sum()).isEqualTo(before);
    assertThat(shared.heldSamples()).isEqualTo(2 * 31);
  }

  @Test
  void aMatcherSetIsKeptUntilItsLastExpectedSelectAndAnUnexpectedOneNever() {
    SharedSelects shared = SharedSelects.over(counting, FINAL, Long.MAX_VALUE, Map.of(UP, 2));
    read(shared, 0, 200_000);
    assertThat(shared.heldSamples()).isEqualTo(2 * 60);
    Map<Labels, List<Sample>> last = read(shared, 0, 200_000);
    assertThat(shared.heldSamples()).as("released at the last select").isZero();
    assertThat(shared.reusedSamples()).as("which still read them").isEqualTo(2 * 60);
    assertThat(last).isEqualTo(read(memory, 0, 200_000));
    assertThat(read(shared, 0, 200_000)).isEqualTo(last);
    assertThat(shared.reusedSamples()).as("a third select reads the storage").isEqualTo(2 * 60);

    List<Matcher> podA = List.of(Matcher.metricName("up"), Matcher.equal("pod", "a"));
    read(shared, 0, 200_000, podA);
    assertThat(shared.heldSamples()).as("not expected").isZero();
    assertThat(shared.peakSamples()).isEqualTo(2 * 60);
  }

  @Test
  void theBudgetBoundsWhatIsHeldAndCloseDropsIt() {
    SharedSelects shared = SharedSelects.over(counting, FINAL, 70);
    Map<Labels, List<Sample>> first = read(shared, 0, 200_000);
    assertThat(shared.heldSamples()).as("one series of 60 fits, two do not").isEqualTo(60);
    assertThat(read(shared, 0, 200_000)).isEqualTo(first);

    Series open = first(shared.querier().select(false, 0, 200_000, UP));
    SampleIterator it = open.iterator();
    shared.close();
    assertThat(shared.heldSamples()).isZero();
    assertThat(Samples.drain(it)).as("an iterator handed out before").isEqualTo(first.get(A));
    long before = shared.reusedSamples();
    assertThat(read(shared, 0, 200_000)).isEqualTo(first);
    assertThat(shared.reusedSamples()).as("after close").isEqualTo(before);
    shared.close();
  }

  @Test
  void scopesDrawingOnOneBudgetHoldAtMostItTogether() {
    SharedSelects.Budget budget = SharedSelects.Budget.of(70);
    SharedSelects one = SharedSelects.over(counting, FINAL, budget, null);
    SharedSelects two = SharedSelects.over(counting, FINAL, budget, null);
    Map<Labels, List<Sample>> first = read(one, 0, 200_000);
    assertThat(budget.held()).as("one series of 60 fits").isEqualTo(60);
    assertThat(read(two, 0, 200_000)).as("the other scope reads the storage").isEqualTo(first);
    assertThat(budget.held()).as("no room for the other scope's series").isEqualTo(60);
    assertThat(two.reusedSamples()).isZero();
    one.close();
    assertThat(budget.held()).isZero();
    read(two, 0, 200_000);
    assertThat(budget.held()).as("room again once the first scope closed").isEqualTo(60);
    two.close();
    assertThat(budget.held()).isZero();
  }

  @Test
  void badArgumentsAreNamed() {
    assertThatThrownBy(() -> SharedSelects.over(null, FINAL, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storage");
    assertThatThrownBy(() -> SharedSelects.over(memory, FINAL, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
    assertThatThrownBy(() -> SharedSelects.over(memory, FINAL, 1, Map.of(UP, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("up");
  }

  private void append(int fromSeconds, int n, Labels... series) {
    Appender app = memory.appender();
    for (int i = fromSeconds; i < fromSeconds + n; i++) {
      for (Labels l : series) {
        app.append(l, i * 1000L, i * 10.0 + l.get("pod").charAt(0));
      }
    }
    app.commit();
  }

  private static Series first(SeriesSet set) {
    assertThat(set.next()).isTrue();
    return set.at();
  }

  private static Map<Labels, List<Sample>> read(Queryable q, long mint, long maxt) {
    return read(q, mint, maxt, UP);
  }

  private static Map<Labels, List<Sample>> read(
      Queryable q, long mint, long maxt, List<Matcher> matchers) {
    try (Querier querier = q.querier()) {
      return Samples.readAll(querier.select(false, mint, maxt, matchers));
    }
  }

  /**
   * Counts the samples iterators land on ({@code next}, {@code seek}, {@code nextBatch}) and
   * remembers the storage's samples after a time, to say what a select should have read.
   */
  private final class Counting implements Queryable {
    private final MemoryStorage storage;
    final LongAdder samples = new LongAdder();

    Counting(MemoryStorage storage) {
      this.storage = storage;
    }

    /** How many stored samples of up lie after {@code t}. */
    long samplesAfter(long t) {
      long n = 0;
      for (List<Sample> s : read(storage, t + 1, Long.MAX_VALUE).values()) {
        n += s.size();
      }
      return n;
    }

    @Override
    public Querier querier() {
      Querier q = storage.querier();
      return new Querier() {
        @Override
        public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
          SeriesSet set = q.select(sorted, mint, maxt, matchers);
          List<Series> all = new ArrayList<>();
          while (set.next()) {
            Series s = set.at();
            all.add(
                new Series() {
                  @Override
                  public Labels labels() {
                    return s.labels();
                  }

                  @Override
                  public SampleIterator iterator() {
                    return counted(s.iterator());
                  }
                });
          }
          return new SeriesSet() {
            int i = -1;

            @Override
            public boolean next() {
              return ++i < all.size();
            }

            @Override
            public Series at() {
              return all.get(i);
            }
          };
        }

        @Override
        public List<String> labelValues(String name, long mint, long maxt, List<Matcher> m) {
          return q.labelValues(name, mint, maxt, m);
        }

        @Override
        public List<String> labelNames(long mint, long maxt, List<Matcher> m) {
          return q.labelNames(mint, maxt, m);
        }

        @Override
        public void close() {
          q.close();
        }
      };
    }

    private SampleIterator counted(SampleIterator it) {
      return new SampleIterator() {
        @Override
        public boolean next() {
          boolean ok = it.next();
          if (ok) {
            samples.increment();
          }
          return ok;
        }

        @Override
        public boolean seek(long t) {
          boolean ok = it.seek(t);
          if (ok) {
            samples.increment();
          }
          return ok;
        }

        @Override
        public long timestamp() {
          return it.timestamp();
        }

        @Override
        public double value() {
          return it.value();
        }
      };
    }
  }
}
