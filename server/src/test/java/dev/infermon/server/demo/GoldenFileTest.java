package dev.infermon.server.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden file's rules, as tables: what is a fact and what a comment, what regeneration keeps,
 * when a golden counts as reviewed, and the diff a changed line shows.
 */
class GoldenFileTest {
  static Stream<Arguments> facts() {
    return Stream.of(
        // golden text, its facts
        Arguments.of("a 1\nb 2\n", List.of("a 1", "b 2")),
        Arguments.of("# header\n\na 1\n  \n", List.of("a 1")),
        Arguments.of("a 1  # WRONG: it is 2 (line 7)\n", List.of("a 1")),
        Arguments.of("a \"x # y\" 1  # WRONG: no\n", List.of("a \"x # y\" 1")),
        Arguments.of("a \"x\\\" # y\" 1\n", List.of("a \"x\\\" # y\" 1")),
        Arguments.of("a#b 1\n", List.of("a#b 1")),
        Arguments.of("a 1 \t\n", List.of("a 1")));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource
  void facts(String text, List<String> facts) {
    assertThat(GoldenFile.facts(text)).isEqualTo(facts);
  }

  static Stream<Arguments> regeneration() {
    String u = GoldenFile.UNREVIEWED + "\n";
    return Stream.of(
        // old golden (null: none), facts now, golden written
        Arguments.of(null, List.of("a 1"), u + "# h\n\na 1\n"),
        Arguments.of(
            "# old\n\na 1  # WRONG: x\nb 2\n",
            List.of("a 1", "b 3"),
            "# h\n\na 1  # WRONG: x\nb 3\n"),
        Arguments.of("# h\n\na 1  # WRONG: x\n", List.of("a 2"), "# h\n\na 2\n"),
        Arguments.of(
            "# h\n\n# why b\nb 2\na 1\n", List.of("a 1", "b 2"), "# h\n\na 1\n# why b\nb 2\n"),
        Arguments.of("# h\na 1\n", List.of("a 1"), "# h\n\na 1\n"),
        Arguments.of(
            "# h\n\na 1  # WRONG: 1st\na 1\n",
            List.of("a 1", "a 1"),
            "# h\n\na 1  # WRONG: 1st\na 1\n"),
        Arguments.of(u + "# h\n\na 1\n", List.of("a 1"), u + "# h\n\na 1\n"),
        // a finding that moved in its file keeps its comment; an exact line is matched first
        Arguments.of(
            "# h\n\nlint x at d.json:10:4 \"m\"  # WRONG: y\n",
            List.of("lint x at d.json:12:4 \"m\""),
            "# h\n\nlint x at d.json:12:4 \"m\"  # WRONG: y\n"),
        Arguments.of(
            "# h\n\nl at d.json:1:1 m  # A\nl at d.json:2:1 m  # B\n",
            List.of("l at d.json:2:1 m", "l at d.json:3:1 m"),
            "# h\n\nl at d.json:2:1 m  # B\nl at d.json:3:1 m  # A\n"),
        Arguments.of(
            "# h\n\nlint x at d.json:10:4 \"m\"  # WRONG: y\n",
            List.of("lint x at d.json:10:4 \"n\""),
            "# h\n\nlint x at d.json:10:4 \"n\"\n"));
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @MethodSource
  void regeneration(String old, List<String> facts, String written) {
    String text = GoldenFile.regenerate(old, List.of("h"), facts);
    assertThat(text).isEqualTo(written);
    assertThat(GoldenFile.facts(text)).isEqualTo(facts);
  }

  @Test
  void aNewGoldenIsUnreviewedUntilTheLineIsDeleted() {
    String fresh = GoldenFile.regenerate(null, List.of("h"), List.of("a 1"));
    assertThat(GoldenFile.reviewed(fresh)).isFalse();
    assertThat(GoldenFile.reviewed(fresh.replace(GoldenFile.UNREVIEWED + "\n", ""))).isTrue();
  }

  @Test
  void aFactThatHoldsACommentIsRefused() {
    assertThatThrownBy(() -> GoldenFile.regenerate(null, List.of(), List.of("a 1 # b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a 1 # b");
  }

  static Stream<Arguments> diff() {
    return Stream.of(
        // golden facts, facts now, the diff
        Arguments.of(List.of("a", "b", "c"), List.of("a", "b", "c"), List.of()),
        Arguments.of(List.of("a", "b", "c"), List.of("a", "B", "c"), List.of("- b", "+ B")),
        Arguments.of(List.of("a", "b"), List.of("a", "b", "c"), List.of("+ c")),
        Arguments.of(List.of("a", "b", "c"), List.of("b", "c"), List.of("- a")),
        Arguments.of(List.of("a", "b"), List.of("b", "a"), List.of("- a", "+ a")));
  }

  @ParameterizedTest(name = "[{index}] {0} -> {1}")
  @MethodSource
  void diff(List<String> golden, List<String> now, List<String> diff) {
    assertThat(GoldenFile.diff(golden, now)).isEqualTo(diff);
  }
}
