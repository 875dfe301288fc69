package dev.infermon.model.relabel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.Matcher;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RE2 syntax carried over to Java, and Go's {@code Regexp.Expand} semantics. */
class RelabelRegexTest {
  @ParameterizedTest(name = "{0} matches {1}: {2}")
  @CsvSource(
      delimiterString = " | ",
      value = {
        // anchored: the whole input must match
        "foo | foo | true",
        "foo | xfoo | false",
        "f | foo | false",
        // RE2 literals that are operators (or errors) in Java
        "[[]x | [x | true",
        "[a&&b] | & | true",
        "[]a] | ] | true",
        "a{ | a{ | true",
        "{foo} | {foo} | true",
        "a{2} | aa | true",
        "a{2,} | aaa | true",
        // POSIX classes
        "[[:digit:]]+ | 123 | true",
        "[[:^digit:]]+ | abc | true",
        "[[:word:]]+ | a_1 | true",
        "[[:alpha:]] | 1 | false",
        // flags and non-capturing groups pass through
        "(?i)FOO | foo | true",
        "(?:a|b)c | bc | true",
        // \\v is the vertical tab in RE2
        "a\\vb | a\u000Bb | true",
        // dot matches newline
        "a.b | 'a\nb' | true",
      })
  void matchesLikeRe2(String regex, String input, boolean expected) {
    assertThat(RelabelRegex.of(regex).matches(input)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " | ",
      value = {
        "(?=a) | error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
        "(?<=a)b | error parsing regexp: invalid or unsupported Perl syntax: `(?<`",
        "(?>a) | error parsing regexp: invalid or unsupported Perl syntax: `(?>`",
        "(a)\\1 | error parsing regexp: invalid escape sequence: `\\1`",
        "a*+ | error parsing regexp: invalid nested repetition operator: `*+`",
        "a** | error parsing regexp: invalid nested repetition operator: `**`",
        "(?P<a-b>x) | error parsing regexp: invalid named capture: `(?P<a-b>`",
        "(?P<n>a)(?P<n>b) | error parsing regexp: duplicate capture group name: `n`",
        "[[:nope:]] | error parsing regexp: invalid character class range: `[:nope:]`",
        "(abc | error parsing regexp: Unclosed group: `(abc`",
      })
  void rejectsWhatRe2Rejects(String regex, String message) {
    assertThatThrownBy(() -> RelabelRegex.of(regex))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @ParameterizedTest(name = "{1} -> {2}")
  @CsvSource(
      delimiterString = " | ",
      value = {
        // regex | template | expansion, for input "ab-cd"
        "(a)(b)-(?P<rest>.*) | $1 | a",
        "(a)(b)-(?P<rest>.*) | ${1}x | ax",
        "(a)(b)-(?P<rest>.*) | $1x | ''",
        "(a)(b)-(?P<rest>.*) | $rest | cd",
        "(a)(b)-(?P<rest>.*) | ${rest}! | cd!",
        "(a)(b)-(?P<rest>.*) | $$1 | $1",
        "(a)(b)-(?P<rest>.*) | $9 | ''",
        "(a)(b)-(?P<rest>.*) | $01 | ''",
        "(a)(b)-(?P<rest>.*) | $0 | ab-cd",
        "(a)(b)-(?P<rest>.*) | ${1 | ${1",
        "(a)(b)-(?P<rest>.*) | $- | $-",
        "(a)(b)-(?P<rest>.*) | x$ | x$",
        "(x)?(a)(b)-.* | [$1] | []",
      })
  void expandsLikeGo(String regex, String template, String expected) {
    RelabelRegex re = RelabelRegex.of(regex);
    Matcher m = re.fullMatch("ab-cd");
    assertThat(m).isNotNull();
    assertThat(re.expand(template, m)).isEqualTo(expected);
  }

  @Property(tries = 200)
  void aLiteralOfLettersMatchesOnlyItself(
      @ForAll @AlphaChars @StringLength(min = 1, max = 12) String s,
      @ForAll @AlphaChars @StringLength(min = 1, max = 12) String other) {
    RelabelRegex re = RelabelRegex.of(s);
    assertThat(re.matches(s)).isTrue();
    assertThat(re.matches(other)).isEqualTo(other.equals(s));
  }

  @Property(tries = 200)
  void hashModIsBelowTheModulus(@ForAll String value, @ForAll long modulus) {
    if (modulus == 0) {
      return;
    }
    long h = Relabel.hashMod(value, modulus);
    assertThat(Long.compareUnsigned(h, modulus)).isNegative();
  }
}
