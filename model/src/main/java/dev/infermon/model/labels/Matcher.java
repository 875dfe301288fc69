package dev.infermon.model.labels;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A label matcher with Prometheus semantics: regular expressions are fully anchored, {@code .}
 * matches a newline too (Prometheus 3), and a missing label has the empty value, so a matcher that
 * matches the empty string also selects series without that label.
 *
 * <p>Immutable and thread-safe. Common regex shapes ({@code .*}, {@code .+}, literals, alternations
 * of literals) are answered without running the regex engine.
 */
public final class Matcher {
  private final MatchType type;
  private final String name;
  private final String value;
  private final Pattern pattern; // null unless a regex without a fast path
  private final Set<String> literalSet; // non-null when the regex is an alternation of literals
  private final FastPath fast;

  private enum FastPath {
    NONE,
    ANY, // .*
    NON_EMPTY, // .+
    LITERAL,
    SET
  }

  private Matcher(MatchType type, String name, String value) {
    this.type = Objects.requireNonNull(type, "type");
    this.name = Objects.requireNonNull(name, "name");
    this.value = Objects.requireNonNull(value, "value");
    if (type == MatchType.REGEX || type == MatchType.NOT_REGEX) {
      if (value.equals(".*")) {
        fast = FastPath.ANY;
        pattern = null;
        literalSet = null;
      } else if (value.equals(".+")) {
        fast = FastPath.NON_EMPTY;
        pattern = null;
        literalSet = null;
      } else if (isLiteral(value)) {
        fast = FastPath.LITERAL;
        pattern = null;
        literalSet = null;
      } else if (isLiteralAlternation(value)) {
        fast = FastPath.SET;
        pattern = null;
        literalSet = new HashSet<>(Arrays.asList(value.split("\\|", -1)));
      } else {
        fast = FastPath.NONE;
        literalSet = null;
        try {
          pattern = Pattern.compile("^(?:" + value + ")$", Pattern.DOTALL);
        } catch (PatternSyntaxException e) {
          throw new IllegalArgumentException(
              "invalid regular expression for label \"" + name + "\": " + e.getDescription(), e);
        }
      }
    } else {
      fast = FastPath.NONE;
      pattern = null;
      literalSet = null;
    }
  }

  /**
   * A matcher of the given type.
   *
   * @throws IllegalArgumentException when a regex does not compile, naming the label and reason
   */
  public static Matcher of(MatchType type, String name, String value) {
    return new Matcher(type, name, value);
  }

  /** {@code name="value"} */
  public static Matcher equal(String name, String value) {
    return new Matcher(MatchType.EQUAL, name, value);
  }

  /** {@code name!="value"} */
  public static Matcher notEqual(String name, String value) {
    return new Matcher(MatchType.NOT_EQUAL, name, value);
  }

  /** {@code name=~"regex"} */
  public static Matcher regex(String name, String regex) {
    return new Matcher(MatchType.REGEX, name, regex);
  }

  /** {@code name!~"regex"} */
  public static Matcher notRegex(String name, String regex) {
    return new Matcher(MatchType.NOT_REGEX, name, regex);
  }

  /** {@code __name__="metric"} */
  public static Matcher metricName(String metric) {
    return equal(Labels.METRIC_NAME, metric);
  }

  public MatchType type() {
    return type;
  }

  public String name() {
    return name;
  }

  public String value() {
    return value;
  }

  /** True if the matcher selects a label with this value ("" for a missing label). */
  public boolean matches(String v) {
    switch (type) {
      case EQUAL:
        return value.equals(v);
      case NOT_EQUAL:
        return !value.equals(v);
      case REGEX:
        return regexMatches(v);
      case NOT_REGEX:
        return !regexMatches(v);
      default:
        throw new AssertionError(type);
    }
  }

  /** True if the matcher selects these labels. */
  public boolean matches(Labels labels) {
    return matches(labels.get(name));
  }

  /** True if a series without this label is selected (the matcher matches ""). */
  public boolean matchesEmpty() {
    return matches("");
  }

  /**
   * For {@code =} and for regexes that are a literal or an alternation of literals: the exact set
   * of values that match; otherwise null. Lets an index look values up instead of scanning them.
   */
  public Set<String> setMatches() {
    if (type == MatchType.EQUAL) {
      return Set.of(value);
    }
    if (type == MatchType.REGEX) {
      if (fast == FastPath.LITERAL) {
        return Set.of(value);
      }
      if (fast == FastPath.SET) {
        return literalSet;
      }
    }
    return null;
  }

  private boolean regexMatches(String v) {
    switch (fast) {
      case ANY:
        return true;
      case NON_EMPTY:
        return !v.isEmpty();
      case LITERAL:
        return value.equals(v);
      case SET:
        return literalSet.contains(v);
      default:
        return pattern.matcher(v).matches();
    }
  }

  private static boolean isLiteral(String re) {
    for (int i = 0; i < re.length(); i++) {
      if ("\\^$.|?*+()[]{}".indexOf(re.charAt(i)) >= 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean isLiteralAlternation(String re) {
    for (int i = 0; i < re.length(); i++) {
      if ("\\^$.?*+()[]{}".indexOf(re.charAt(i)) >= 0) {
        return false;
      }
    }
    return re.indexOf('|') >= 0;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Matcher)) {
      return false;
    }
    Matcher m = (Matcher) o;
    return type == m.type && name.equals(m.name) && value.equals(m.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, name, value);
  }

  /** PromQL notation, for example {@code job=~"api|web"}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(name).append(type.symbol()).append('"');
    Labels.escapeInto(sb, value);
    return sb.append('"').toString();
  }
}
