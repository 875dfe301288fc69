package dev.infermon.model.labels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MatcherTest {
  @ParameterizedTest(name = "{0} {1} \"{2}\" on \"{3}\" -> {4}")
  @CsvSource(
      delimiterString = " | ",
      value = {
        "EQUAL     | a | x        | x     | true",
        "EQUAL     | a | x        | xx    | false",
        "EQUAL     | a | ''       | ''    | true",
        "NOT_EQUAL | a | x        | y     | true",
        "NOT_EQUAL | a | x        | x     | false",
        "REGEX     | a | x.*      | xyz   | true",
        "REGEX     | a | x.*      | axyz  | false", // fully anchored
        "REGEX     | a | .*       | ''    | true", // matches missing labels
        "REGEX     | a | .+       | ''    | false",
        "REGEX     | a | foo|bar  | bar   | true",
        "REGEX     | a | foo|bar  | foobar | false",
        "REGEX     | a | foo|     | ''    | true",
        "REGEX     | a | v[0-9]+  | v12   | true",
        "NOT_REGEX | a | x.*      | y     | true",
        "NOT_REGEX | a | x.*      | ''    | true",
        "NOT_REGEX | a | .*       | ''    | false",
      })
  void matchesLikePrometheus(MatchType t, String name, String re, String v, boolean want) {
    assertThat(Matcher.of(t, name, re).matches(v)).isEqualTo(want);
  }

  @Test
  void missingLabelCountsAsEmpty() {
    Labels l = Labels.of("__name__", "up");
    assertThat(Matcher.regex("pod", ".*").matches(l)).isTrue();
    assertThat(Matcher.notEqual("pod", "x").matches(l)).isTrue();
    assertThat(Matcher.equal("pod", "x").matches(l)).isFalse();
  }

  @Test
  void dotMatchesNewlineAsInPrometheus3() {
    assertThat(Matcher.regex("a", "a.c").matches("a\nc")).isTrue();
  }

  @Test
  void badRegexNamesTheLabel() {
    assertThatThrownBy(() -> Matcher.regex("job", "a(b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"job\"");
  }

  @Test
  void setMatchesForLiteralAlternations() {
    assertThat(Matcher.regex("a", "x|y").setMatches()).containsExactlyInAnyOrder("x", "y");
    assertThat(Matcher.regex("a", "x.*").setMatches()).isNull();
    assertThat(Matcher.equal("a", "x").setMatches()).containsExactly("x");
  }
}
