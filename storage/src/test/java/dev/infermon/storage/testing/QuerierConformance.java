package dev.infermon.storage.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Queryable;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.SeriesSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Read-only conformance of a {@link Querier}: the subclass loads {@link ConformanceData} into its
 * storage once, and every answer is compared with a naive reference ({@link FixedQuerier}) over the
 * same data, for a table of matcher sets and time ranges. On-disk blocks run it as well as the
 * head, so it never writes.
 *
 * <p>Subclasses implement {@link #load(SortedMap)} and may override the feature hooks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class QuerierConformance {
  private Queryable storage;
  private FixedQuerier reference;

  /** Writes {@code data} into a fresh storage and returns it; called once per test class. */
  protected abstract Queryable load(SortedMap<Labels, List<Sample>> data) throws Exception;

  /** Releases what {@link #load} created; called once after all tests. */
  protected void cleanup() throws Exception {}

  /**
   * Whether label names and values are restricted to series with samples in {@code [mint, maxt]}
   * exactly. Storages that filter by coarser time ranges (a whole block) return false and skip
   * those checks.
   */
  protected boolean labelsFilteredBySampleTime() {
    return true;
  }

  @BeforeAll
  final void loadData() throws Exception {
    storage = load(ConformanceData.dataSet());
    reference = FixedQuerier.of(ConformanceData.dataSet());
  }

  @AfterAll
  final void releaseData() throws Exception {
    cleanup();
  }

  static final long S = ConformanceData.START;
  static final long M = ConformanceData.MIDDLE;
  static final long E = ConformanceData.END;

  /**
   * Matcher sets in PromQL notation (parsed by {@link #parse}) that select something or nothing.
   */
  static Stream<String> matcherSets() {
    return Stream.of(
        "__name__=\"up\"",
        "__name__=~\"vllm:.*\"",
        "__name__=~\"up|late_gauge\"",
        "__name__=~\"vllm:.*_total\", pod!=\"a\"",
        "__name__=~\".+\", model_name=\"\"",
        "__name__=~\".+\", model_name=~\"\"",
        "__name__=~\".+\", model_name!=\"\"",
        "model_name=~\".*\", __name__=\"up\"",
        "model_name=~\".+\"",
        "model_name!~\"ll.*\", __name__=~\".+\"",
        "pod=~\"a|\", __name__=~\"early.*|single_sample|special_values\"",
        "pod!~\"a|b\", __name__!=\"\"",
        "pod=~\"A\"",
        "__name__=\"up\", pod=\"nonexistent\"",
        "le=~\"0.1|\\\\+Inf\"",
        "foo=\"bar\"",
        "foo!=\"bar\", __name__=\"up\"",
        "job=\"no_name\"",
        "__name__=\"special_values\"");
  }

  /** Time ranges: everything, inside, on sample boundaries (closed), empty on either side. */
  static Stream<long[]> ranges() {
    List<Sample> up =
        ConformanceData.dataSet().get(Labels.of("__name__", "up", "pod", "a", "job", "vllm"));
    return Stream.of(
        new long[] {Long.MIN_VALUE, Long.MAX_VALUE},
        new long[] {S, E},
        new long[] {S + 3_600_000, S + 3_900_000},
        new long[] {up.get(10).t(), up.get(20).t()},
        new long[] {up.get(10).t() + 1, up.get(20).t() - 1},
        new long[] {up.get(5).t(), up.get(5).t()},
        new long[] {M, E},
        new long[] {S - 3_600_000, S - 1},
        new long[] {E, E + 3_600_000});
  }

  static Stream<Arguments> selectCases() {
    List<Arguments> out = new ArrayList<>();
    matcherSets().forEach(m -> ranges().forEach(r -> out.add(Arguments.of(m, r[0], r[1]))));
    return out.stream();
  }

  @ParameterizedTest(name = "{index}: '{'{0}'}' in [{1}, {2}]")
  @MethodSource("selectCases")
  void sortedSelectEqualsReference(String matchers, long mint, long maxt) {
    List<Matcher> ms = parse(matchers);
    try (Querier q = storage.querier()) {
      Map<Labels, List<Sample>> got = Samples.readAll(q.select(true, mint, maxt, ms));

      Map<Labels, List<Sample>> want = Samples.readAll(reference.select(true, mint, maxt, ms));
      assertThat(new ArrayList<>(got.keySet())).containsExactlyElementsOf(want.keySet());
      assertThat(got).containsExactlyEntriesOf(want);
    }
  }

  /**
   * An unsorted select reads the same series and samples as the reference, in any order, and a
   * querier that says it has nothing in a range ({@link Querier#mayHaveSamplesIn}) selects nothing
   * there.
   */
  @ParameterizedTest(name = "{index}: '{'{0}'}' in [{1}, {2}]")
  @MethodSource("selectCases")
  void unsortedSelectReadsTheSameSamples(String matchers, long mint, long maxt) {
    List<Matcher> ms = parse(matchers);
    try (Querier q = storage.querier()) {
      SeriesSet set = q.select(false, mint, maxt, ms);
      List<Labels> order = new ArrayList<>();
      Map<Labels, List<Sample>> got = new java.util.HashMap<>();
      while (set.next()) {
        order.add(set.at().labels());
        got.put(set.at().labels(), Samples.drain(set.at().iterator()));
      }

      Map<Labels, List<Sample>> want = Samples.readAll(reference.select(true, mint, maxt, ms));
      assertThat(order).as("no series twice").hasSameSizeAs(got.keySet());
      assertThat(got).containsExactlyInAnyOrderEntriesOf(want);
      if (!q.mayHaveSamplesIn(mint, maxt)) {
        assertThat(want).as("said to have nothing in [%d, %d]", mint, maxt).isEmpty();
      }
    }
  }

  /**
   * {@link SampleIterator#nextBatch} reads exactly what {@code next()} reads and leaves the
   * iterator where {@code next()} would: random runs of batches (of every length, up to every
   * sample's time and just around it), single steps and seeks on the storage's iterator give what
   * the same calls give on the interface's plain implementation over another iterator of the same
   * series.
   */
  @ParameterizedTest(name = "{index}: '{'{0}'}' in [{1}, {2}]")
  @MethodSource("selectCases")
  void nextBatchReadsWhatNextReads(String matchers, long mint, long maxt) {
    try (Querier q = storage.querier()) {
      SeriesSet set = q.select(true, mint, maxt, parse(matchers));
      while (set.next()) {
        List<Sample> all = Samples.drain(set.at().iterator());
        for (int seed = 0; seed < 6; seed++) {
          java.util.Random r = new java.util.Random(seed * 1_000_003L + all.size());
          SampleIterator batched = set.at().iterator();
          SampleIterator plain = Samples.oneByOne(set.at().iterator());
          StringBuilder got = new StringBuilder();
          StringBuilder want = new StringBuilder();
          for (int op = 0; op < 60; op++) {
            int kind = r.nextInt(10);
            long t =
                all.isEmpty() || r.nextInt(8) == 0
                    ? Long.MAX_VALUE
                    : all.get(r.nextInt(all.size())).t() + r.nextInt(3) - 1;
            int len = new int[] {1, 2, 3, 5, 64, 1000}[r.nextInt(6)];
            if (kind < 7) {
              got.append(batch(batched, len, t)).append('\n');
              want.append(batch(plain, len, t)).append('\n');
            } else if (kind < 9) {
              got.append(step(batched, batched.next())).append('\n');
              want.append(step(plain, plain.next())).append('\n');
            } else {
              got.append(step(batched, batched.seek(t))).append('\n');
              want.append(step(plain, plain.seek(t))).append('\n');
            }
          }
          assertThat(got.toString())
              .as(set.at().labels() + " seed " + seed)
              .isEqualTo(want.toString());
        }
      }
    }
  }

  private static String batch(SampleIterator it, int len, long maxt) {
    long[] ts = new long[len + 2];
    double[] vs = new double[len + 2];
    int r = it.nextBatch(ts, vs, 1, len, maxt);
    StringBuilder sb = new StringBuilder("batch(" + len + ", " + maxt + ") = " + r);
    for (int i = 0; i < (r < 0 ? ~r : r); i++) {
      sb.append(' ').append(ts[1 + i]).append('=').append(Double.doubleToRawLongBits(vs[1 + i]));
    }
    return sb.append(" guards ").append(ts[0]).append(ts[len + 1]).toString();
  }

  private static String step(SampleIterator it, boolean ok) {
    return ok ? it.timestamp() + "=" + Double.doubleToRawLongBits(it.value()) : "none";
  }

  @ParameterizedTest(name = "{index}: '{'{0}'}'")
  @MethodSource("matcherSets")
  void unsortedSelectHasTheSameSeries(String matchers) {
    List<Matcher> ms = parse(matchers);
    try (Querier q = storage.querier()) {
      List<Labels> got = Samples.labelsOf(q.select(false, S, E, ms));

      assertThat(new HashSet<>(got)).hasSameSizeAs(got);
      assertThat(got)
          .containsExactlyInAnyOrderElementsOf(Samples.labelsOf(reference.select(true, S, E, ms)));
    }
  }

  @ParameterizedTest(name = "{index}: '{'{0}'}'")
  @MethodSource("matcherSets")
  void labelNamesAndValuesOverAllTime(String matchers) {
    List<Matcher> ms = parse(matchers);
    try (Querier q = storage.querier()) {
      assertThat(q.labelNames(S, E, ms)).isEqualTo(reference.labelNames(S, E, ms));
      for (String name : List.of("__name__", "pod", "model_name", "le", "zone", "foo")) {
        assertThat(q.labelValues(name, S, E, ms))
            .as("values of %s", name)
            .isEqualTo(reference.labelValues(name, S, E, ms));
      }
    }
  }

  @Test
  void labelNamesAndValuesWithoutMatchers() {
    try (Querier q = storage.querier()) {
      assertThat(q.labelNames(S, E, List.of()))
          .containsExactly("__name__", "job", "le", "model_name", "pod", "zone");
      assertThat(q.labelValues("pod", S, E, List.of())).containsExactly("a", "b", "c");
      assertThat(q.labelValues("nonexistent", S, E, List.of())).isEmpty();
    }
  }

  @ParameterizedTest(name = "{index}: '{'{0}'}'")
  @MethodSource("matcherSets")
  void labelNamesAndValuesRestrictedByTime(String matchers) {
    Assumptions.assumeTrue(labelsFilteredBySampleTime(), "storage filters labels by block time");
    List<Matcher> ms = parse(matchers);
    try (Querier q = storage.querier()) {
      for (long[] r : ranges().toList()) {
        assertThat(q.labelNames(r[0], r[1], ms)).isEqualTo(reference.labelNames(r[0], r[1], ms));
        assertThat(q.labelValues("__name__", r[0], r[1], ms))
            .as("names in [%d, %d]", r[0], r[1])
            .isEqualTo(reference.labelValues("__name__", r[0], r[1], ms));
      }
    }
  }

  @Test
  void seekFollowsTheSeamsRules() {
    try (Querier q = storage.querier()) {
      SeriesSet set = q.select(true, S, E, parse("__name__=~\"up|vllm:.*\""));
      int series = 0;
      while (set.next()) {
        List<Sample> want = ConformanceData.dataSet().get(set.at().labels());
        series++;
        for (int k : new int[] {0, 1, 119, 120, 121, 239, 240, want.size() / 2, want.size() - 1}) {
          if (k >= want.size()) {
            continue;
          }
          Sample target = want.get(k);
          SampleIterator it = set.at().iterator();
          // Just before, exactly at, then backwards (stays), then past the end.
          assertThat(it.seek(target.t() - 1)).isTrue();
          assertThat(it.timestamp()).isLessThanOrEqualTo(target.t());
          assertThat(it.seek(target.t())).isTrue();
          assertThat(Sample.of(it.timestamp(), it.value())).isEqualTo(target);
          assertThat(it.seek(S - 1)).isTrue();
          assertThat(it.timestamp()).isEqualTo(target.t());
          if (k + 1 < want.size()) {
            assertThat(it.next()).isTrue();
            assertThat(Sample.of(it.timestamp(), it.value())).isEqualTo(want.get(k + 1));
          }
          assertThat(it.seek(E + 1)).isFalse();
          assertThat(it.next()).isFalse();
        }
      }
      assertThat(series).as("up, running, prompt tokens, 4 buckets; 3 pods").isEqualTo(3 * 7);
    }
  }

  @Test
  void iteratorsAreFreshAndIndependent() {
    try (Querier q = storage.querier()) {
      SeriesSet set = q.select(true, S, E, parse("__name__=\"single_sample\""));
      assertThat(set.next()).isTrue();
      SampleIterator a = set.at().iterator();
      SampleIterator b = set.at().iterator();
      assertThat(a.next()).isTrue();
      assertThat(a.next()).isFalse();
      assertThat(Samples.drain(b)).containsExactly(Sample.of(M - 1, 7));
      assertThat(Samples.drain(set.at().iterator())).hasSize(1);
      assertThat(set.next()).isFalse();
    }
  }

  @Test
  void selectRejectsMatchersThatAllMatchEmpty() {
    try (Querier q = storage.querier()) {
      assertThatThrownBy(() -> q.select(true, S, E, List.of()))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> q.select(true, S, E, parse("pod=~\".*\", foo=\"\"")))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void closeIsIdempotent() {
    Querier q = storage.querier();
    q.close();
    q.close();
  }

  /**
   * Parses {@code name="v", name!~"re"} (the inside of a PromQL selector's braces) with Go-style
   * escapes {@code \\} and {@code \"} in values.
   */
  public static List<Matcher> parse(String s) {
    List<Matcher> out = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      while (s.charAt(i) == ' ' || s.charAt(i) == ',') {
        i++;
      }
      int start = i;
      while ("=!~".indexOf(s.charAt(i)) < 0) {
        i++;
      }
      String name = s.substring(start, i).trim();
      int opStart = i;
      while (s.charAt(i) != '"') {
        i++;
      }
      String op = s.substring(opStart, i);
      StringBuilder v = new StringBuilder();
      i++;
      while (s.charAt(i) != '"') {
        if (s.charAt(i) == '\\') {
          i++;
        }
        v.append(s.charAt(i++));
      }
      i++;
      switch (op) {
        case "=":
          out.add(Matcher.equal(name, v.toString()));
          break;
        case "!=":
          out.add(Matcher.notEqual(name, v.toString()));
          break;
        case "=~":
          out.add(Matcher.regex(name, v.toString()));
          break;
        case "!~":
          out.add(Matcher.notRegex(name, v.toString()));
          break;
        default:
          throw new IllegalArgumentException("unknown operator " + op + " in " + s);
      }
    }
    return out;
  }
}
