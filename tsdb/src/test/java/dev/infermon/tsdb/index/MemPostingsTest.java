package dev.infermon.tsdb.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.testing.QuerierConformance;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MemPostingsTest {
  /** A small population of series; index i + 1 is the series id. */
  static final List<Labels> SERIES =
      List.of(
          Labels.of("__name__", "up", "job", "vllm", "pod", "a"),
          Labels.of("__name__", "up", "job", "vllm", "pod", "b"),
          Labels.of("__name__", "up", "job", "dcgm"),
          Labels.of("__name__", "ttft_bucket", "pod", "a", "le", "0.1"),
          Labels.of("__name__", "ttft_bucket", "pod", "a", "le", "+Inf"),
          Labels.of("__name__", "ttft_bucket", "pod", "b", "le", "0.1"),
          Labels.of("__name__", "kv", "pod", "c", "model", "llama"),
          Labels.of("job", "no_name", "pod", "a"));

  private static MemPostings index() {
    MemPostings ix = new MemPostings();
    // Out of id order on purpose: concurrent creators do that.
    for (int i : new int[] {2, 0, 1, 3, 5, 4, 7, 6}) {
      ix.add(i + 1, SERIES.get(i));
    }
    return ix;
  }

  static Stream<String> selectors() {
    return Stream.of(
        "__name__=\"up\"",
        "pod=\"a\"",
        "pod!=\"a\"",
        "pod=\"\"",
        "pod=~\"a|b\"",
        "pod=~\"a|\"",
        "pod!~\"a|\"",
        "pod=~\".*\"",
        "pod=~\".+\"",
        "pod!=\"\"",
        "pod!~\".+\"",
        "__name__=~\"up|kv\", pod!=\"c\"",
        "__name__=~\".+\", le!~\"0\\\\..*\"",
        "job=~\"v.*\", pod!=\"\", pod!=\"b\"",
        "le=\"\", __name__=\"ttft_bucket\"",
        "missing=\"\"",
        "missing!=\"x\"",
        "missing=\"x\"",
        "pod=~\"A\"");
  }

  @ParameterizedTest(name = "'{'{0}'}'")
  @MethodSource("selectors")
  void matchersSelectWhatTheyMatchIncludingSeriesWithoutTheLabel(String selector) {
    List<Matcher> ms = QuerierConformance.parse(selector);

    assertThat(Postings.toList(MatcherPostings.select(index(), ms))).isEqualTo(naive(ms));
  }

  @Provide
  Arbitrary<List<Matcher>> matcherSets() {
    Arbitrary<String> names = Arbitraries.of("__name__", "pod", "job", "le", "model", "missing");
    Arbitrary<String> values = Arbitraries.of("", "a", "b", "up", "vllm", "0.1", "llama", "x");
    Arbitrary<String> regexes =
        Arbitraries.of("", ".*", ".+", "a|b", "a|", "u.*", "[ab]", "0\\..*");
    Arbitrary<Matcher> m =
        Arbitraries.oneOf(
            net.jqwik.api.Combinators.combine(names, values).as(Matcher::equal),
            net.jqwik.api.Combinators.combine(names, values).as(Matcher::notEqual),
            net.jqwik.api.Combinators.combine(names, regexes).as(Matcher::regex),
            net.jqwik.api.Combinators.combine(names, regexes).as(Matcher::notRegex));
    return m.list().ofMinSize(1).ofMaxSize(4);
  }

  @Property(tries = 500)
  void anyMatcherSetAgreesWithNaiveEvaluation(@ForAll("matcherSets") List<Matcher> ms) {
    assertThat(Postings.toList(MatcherPostings.select(index(), ms))).isEqualTo(naive(ms));
  }

  @Test
  void labelNamesAndValuesAreSortedAndForgetRemovedSeries() {
    MemPostings ix = index();
    assertThat(ix.labelValues("pod")).containsExactly("a", "b", "c");
    assertThat(ix.labelNames()).containsExactly("__name__", "job", "le", "model", "pod");

    ix.remove(Map.of(7, SERIES.get(6)));

    assertThat(ix.labelValues("pod")).containsExactly("a", "b");
    assertThat(ix.labelNames()).doesNotContain("model");
    assertThat(Postings.toList(ix.allPostings())).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 8L);
    assertThat(ix.size()).isEqualTo(7);
  }

  @Test
  void aSnapshotDoesNotChangeWhenTheIndexDoes() {
    MemPostings ix = index();
    Postings before = ix.postings("pod", "a");
    ix.add(20, Labels.of("pod", "a"));
    ix.remove(Map.of(1, SERIES.get(0)));

    assertThat(Postings.toList(before)).containsExactly(1L, 4L, 5L, 8L);
    assertThat(Postings.toList(ix.postings("pod", "a"))).containsExactly(4L, 5L, 8L, 20L);
  }

  private static List<Long> naive(List<Matcher> ms) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < SERIES.size(); i++) {
      boolean all = true;
      for (Matcher m : ms) {
        all &= m.matches(SERIES.get(i));
      }
      if (all) {
        out.add((long) i + 1);
      }
    }
    return out;
  }
}
