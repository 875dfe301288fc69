package dev.infermon.model.labels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LabelsTest {
  @Test
  void sortsByNameAndDropsEmptyValues() {
    Labels l = Labels.of("pod", "p1", "__name__", "up", "empty", "", "job", "vllm");
    assertThat(l.names()).containsExactly("__name__", "job", "pod");
    assertThat(l.get("empty")).isEmpty();
    assertThat(l.has("empty")).isFalse();
    assertThat(l.toString()).isEqualTo("up{job=\"vllm\", pod=\"p1\"}");
  }

  @Test
  void equalSetsAreEqualWhateverTheOrderOfConstruction() {
    Labels a = Labels.of("a", "1", "b", "2");
    Labels b = Labels.builder().set("b", "2").set("a", "1").build();
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a.hash64()).isEqualTo(b.hash64());
    assertThat(a.compareTo(b)).isZero();
  }

  @Test
  void rejectsCallerMistakesNamingTheValue() {
    assertThatThrownBy(() -> Labels.of("a")).hasMessageContaining("odd count");
    assertThatThrownBy(() -> Labels.of("a", "1", "a", "2")).hasMessageContaining("\"a\"");
    assertThatThrownBy(() -> Labels.fromSortedPairs(new String[] {"b", "1", "a", "2"}))
        .hasMessageContaining("\"b\" before \"a\"");
  }

  @Test
  void orderIsLabelByLabel() {
    List<Labels> sorted =
        List.of(Labels.of("a", "1"), Labels.of("a", "1", "b", "1"), Labels.of("a", "2"));
    assertThat(sorted.get(0)).isLessThan(sorted.get(1));
    assertThat(sorted.get(1)).isLessThan(sorted.get(2));
  }

  @Test
  void withoutAndKeepOnly() {
    Labels l = Labels.of("__name__", "x", "a", "1", "b", "2");
    assertThat(l.withoutMetricName()).isEqualTo(Labels.of("a", "1", "b", "2"));
    assertThat(l.keepOnly(Set.of("b"))).isEqualTo(Labels.of("b", "2"));
    assertThat(l.without(Set.of("zzz"))).isSameAs(l);
  }

  @Test
  void escapesValuesInToString() {
    assertThat(Labels.of("a", "x\"y\\z\n").toString()).isEqualTo("{a=\"x\\\"y\\\\z\\n\"}");
  }

  static Stream<Arguments> badNamesAndValues() {
    return Stream.of(
        arguments(names("a"), values(), "differ in length: 1 names, 0 values"),
        arguments(names(), values("1"), "differ in length: 0 names, 1 values"),
        arguments(names("b", "a"), values("1", "2"), "\"b\" before \"a\""),
        arguments(names("a", "a"), values("1", "2"), "\"a\" before \"a\""),
        arguments(names("a", null), values("1", "2"), "null label name at index 1"),
        arguments(names(""), values("1"), "label name must not be empty"),
        arguments(names("a", "b"), values("1", null), "null value for label \"b\""),
        arguments(names("a", "b"), values("", "2"), "empty value for label \"a\""));
  }

  @ParameterizedTest(name = "{0} {1}: {2}")
  @MethodSource("badNamesAndValues")
  void fromSortedNamesAndValuesRejectsNamingTheValue(
      List<String> names, List<String> values, String message) {
    String[] n = names.toArray(new String[0]);
    String[] v = values.toArray(new String[0]);
    assertThatThrownBy(() -> Labels.fromSortedNamesAndValues(n, v))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  /** Every way to build a label set from sorted alternating names and values. */
  static Stream<Arguments> constructions() {
    Function<String[], Labels> of = Labels::of;
    Function<String[], Labels> sortedPairs = Labels::fromSortedPairs;
    Function<String[], Labels> ownNames = p -> Labels.fromSortedNamesAndValues(evens(p), odds(p));
    return Stream.of(
        arguments("of", of),
        arguments("fromSortedPairs", sortedPairs),
        arguments("fromSortedNamesAndValues, own names", ownNames),
        arguments("fromSortedNamesAndValues, shared names", sharingNames()));
  }

  /** Builds with one names array per distinct names tuple, as the head does. */
  private static Function<String[], Labels> sharingNames() {
    List<String[]> tuples = new ArrayList<>();
    return pairs -> {
      String[] names = evens(pairs);
      String[] shared =
          tuples.stream().filter(t -> Arrays.equals(t, names)).findFirst().orElse(null);
      if (shared == null) {
        tuples.add(names);
        shared = names;
      }
      return Labels.fromSortedNamesAndValues(shared, odds(pairs));
    };
  }

  // Sorted by Prometheus order: label by label, name then value, shorter first.
  private static final String[][] ORDERED = {
    {},
    {"__name__", "up"},
    {"__name__", "up", "job", "a"},
    {"__name__", "up", "job", "a", "pod", "p1"},
    {"__name__", "up", "job", "a", "pod", "p2"},
    {"__name__", "up", "job", "b", "pod", "p1"},
    {"__name__", "up", "pod", "p1"},
    {"__name__", "z"},
    {"a", "1"},
  };

  @ParameterizedTest(name = "{0}")
  @MethodSource("constructions")
  void everyConstructionAgreesWithOfOnEqualityHashOrderAndText(
      String how, Function<String[], Labels> build) {
    List<Labels> built = new ArrayList<>();
    for (String[] pairs : ORDERED) {
      built.add(build.apply(pairs));
    }
    for (int i = 0; i < ORDERED.length; i++) {
      Labels want = Labels.of(ORDERED[i]);
      Labels got = built.get(i);
      assertThat(got).isEqualTo(want).hasSameHashCodeAs(want).hasToString(want.toString());
      assertThat(want).isEqualTo(got);
      assertThat(got.hash64()).isEqualTo(want.hash64());
      assertThat(got.compareTo(want)).isZero();
      assertThat(got.toMap()).isEqualTo(want.toMap());
      assertThat(got.toBuilder().build()).isEqualTo(want);
      for (int j = 0; j < ORDERED.length; j++) {
        Labels other = Labels.of(ORDERED[j]);
        assertThat(Integer.signum(got.compareTo(other)))
            .as("%s vs %s", got, other)
            .isEqualTo(Integer.compare(i, j));
        assertThat(got.equals(other)).isEqualTo(i == j);
      }
    }
    List<Labels> shuffled = new ArrayList<>(built);
    Collections.reverse(shuffled);
    shuffled.sort(Comparator.naturalOrder());
    assertThat(shuffled).containsExactlyElementsOf(built);
  }

  @Test
  void hash64IsStableAcrossRepresentations() {
    // Values of the earlier one-array representation: hashes must not change with the layout.
    assertThat(Labels.of("__name__", "up", "job", "vllm").hash64()).isEqualTo(0x9C84B4BBAE6CB471L);
    assertThat(Labels.EMPTY.hash64()).isEqualTo(0x90F8749B0FB13233L);
  }

  @Test
  void sharedNamesAreSharedAndEqualityStillComparesValues() {
    String[] names = {"__name__", "pod"};
    Labels a = Labels.fromSortedNamesAndValues(names, new String[] {"up", "p1"});
    Labels b = Labels.fromSortedNamesAndValues(names, new String[] {"up", "p2"});
    assertThat(a.sharesNamesWith(b)).isTrue();
    assertThat(a).isNotEqualTo(b).isLessThan(b);
    assertThat(a.sharesNamesWith(Labels.of("__name__", "up", "pod", "p1"))).isFalse();
  }

  @Test
  void toBuilderDropsWhatSetWouldHaveRejectedOrDropped() {
    // fromSortedPairs trusts its caller; toBuilder still behaves as a sequence of set() calls.
    Labels withEmpty = Labels.fromSortedPairs(new String[] {"a", "", "b", "2"});
    assertThat(withEmpty.toBuilder().build()).isEqualTo(Labels.of("b", "2"));
    Labels emptyName = Labels.fromSortedPairs(new String[] {"", "1", "b", "2"});
    assertThatThrownBy(emptyName::toBuilder).hasMessageContaining("must not be empty");
  }

  @Test
  void builderSortsWhateverTheOrderOfSets() {
    Labels want = Labels.fromSortedPairs(new String[] {"a", "1", "b", "2", "c", "3", "d", "4"});
    String[][] orders = {{"a", "b", "c", "d"}, {"d", "c", "b", "a"}, {"c", "a", "d", "b"}};
    for (String[] order : orders) {
      Labels.Builder b = Labels.builder();
      for (String n : order) {
        b.set(n, want.get(n));
      }
      assertThat(b.build()).as(String.join(",", order)).isEqualTo(want);
      assertThat(b.del("b").build()).isEqualTo(want.without(Set.of("b")));
    }
    assertThat(want.toBuilder().set("0", "x").set("c", "").build())
        .isEqualTo(Labels.of("0", "x", "a", "1", "b", "2", "d", "4"));
  }

  @Test
  void lookupsAboveTheBinarySearchThreshold() {
    Labels.Builder b = Labels.builder();
    for (int i = 0; i < 40; i++) {
      b.set(String.format("l%02d", i), "v" + i);
    }
    Labels l = b.build();
    assertThat(l.get("l00")).isEqualTo("v0");
    assertThat(l.get("l27")).isEqualTo("v27");
    assertThat(l.get("l39")).isEqualTo("v39");
    assertThat(l.has("l40")).isFalse();
    assertThat(l.has("a")).isFalse();
  }

  private static List<String> names(String... n) {
    return Arrays.asList(n);
  }

  private static List<String> values(String... v) {
    return Arrays.asList(v);
  }

  private static String[] evens(String[] pairs) {
    String[] out = new String[pairs.length / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = pairs[2 * i];
    }
    return out;
  }

  private static String[] odds(String[] pairs) {
    String[] out = new String[pairs.length / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = pairs[2 * i + 1];
    }
    return out;
  }
}
