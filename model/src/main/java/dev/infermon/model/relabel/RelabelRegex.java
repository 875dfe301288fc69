package dev.infermon.model.relabel;

import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A relabeling regular expression with Prometheus semantics: written in RE2 syntax, fully anchored
 * and with {@code .} matching newlines (Prometheus 3 compiles {@code ^(?s:<regex>)$}).
 *
 * <p>Immutable and thread-safe. Equality is by source text. {@link #DEFAULT} is the {@code (.*)}
 * that a relabel config gets when it sets no {@code regex}; it is a distinct instance from one
 * parsed from an explicit {@code (.*)}, because Prometheus's validation tells the two apart.
 */
public final class RelabelRegex {
  /** The default regex of a relabel config, {@code (.*)}. */
  public static final RelabelRegex DEFAULT = of("(.*)");

  private final String source;
  private final Pattern pattern;
  private final List<String> groupNames;

  private RelabelRegex(String source, Pattern pattern, List<String> groupNames) {
    this.source = source;
    this.pattern = pattern;
    this.groupNames = groupNames;
  }

  /**
   * Compiles an RE2 pattern.
   *
   * @throws IllegalArgumentException {@code error parsing regexp: ...} when it does not compile
   */
  public static RelabelRegex of(String source) {
    Objects.requireNonNull(source, "source");
    GoRegexTranslator.Translation t = GoRegexTranslator.translate(source);
    try {
      Pattern p = Pattern.compile("(?s:" + t.javaPattern() + ")");
      return new RelabelRegex(source, p, t.groupNames());
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "error parsing regexp: " + e.getDescription() + ": `" + source + "`", e);
    }
  }

  /** The pattern as written in the configuration. */
  public String source() {
    return source;
  }

  /** True if the whole input matches. */
  public boolean matches(String input) {
    return pattern.matcher(input).matches();
  }

  /** A matcher positioned on a whole-input match, or null if the input does not match. */
  Matcher fullMatch(String input) {
    Matcher m = pattern.matcher(input);
    return m.matches() ? m : null;
  }

  /**
   * Expands a template as Go's {@code Regexp.ExpandString} does: {@code $1}, {@code ${1}}, {@code
   * $name} and {@code ${name}} are replaced by the group's text, {@code $$} by {@code $}. A name is
   * as long as possible ({@code $1x} means {@code ${1x}}); a missing or unmatched group expands to
   * nothing; a malformed reference is copied literally.
   */
  String expand(String template, Matcher match) {
    if (template.indexOf('$') < 0) {
      return template;
    }
    StringBuilder dst = new StringBuilder(template.length() + 16);
    int i = 0;
    int n = template.length();
    while (i < n) {
      int dollar = template.indexOf('$', i);
      if (dollar < 0) {
        dst.append(template, i, n);
        break;
      }
      dst.append(template, i, dollar);
      i = dollar;
      if (i + 1 < n && template.charAt(i + 1) == '$') {
        dst.append('$');
        i += 2;
        continue;
      }
      int[] ref = extract(template, i + 1); // {nameStart, nameEnd, restStart} or null
      if (ref == null) {
        dst.append('$');
        i++;
        continue;
      }
      String name = template.substring(ref[0], ref[1]);
      int group = groupNumber(name);
      if (group < 0) {
        group = groupNames.indexOf(name); // -1 when no group has this name
      }
      if (group >= 0 && group <= match.groupCount() && match.start(group) >= 0) {
        dst.append(match.group(group));
      }
      i = ref[2];
    }
    return dst.toString();
  }

  /** Go's {@code extract}: the name after a {@code $}, bare or in braces. */
  private static int[] extract(String s, int from) {
    if (from >= s.length()) {
      return null;
    }
    boolean brace = s.charAt(from) == '{';
    int start = brace ? from + 1 : from;
    int j = start;
    while (j < s.length()) {
      int cp = s.codePointAt(j);
      if (!Character.isLetter(cp) && !Character.isDigit(cp) && cp != '_') {
        break;
      }
      j += Character.charCount(cp);
    }
    if (j == start) {
      return null;
    }
    int rest = j;
    if (brace) {
      if (j >= s.length() || s.charAt(j) != '}') {
        return null;
      }
      rest = j + 1;
    }
    return new int[] {start, j, rest};
  }

  /** The group number a name denotes, or -1 when it is not a number (leading zeros included). */
  private static int groupNumber(String name) {
    if (name.length() > 1 && name.charAt(0) == '0') {
      return -1;
    }
    int num = 0;
    for (int k = 0; k < name.length(); k++) {
      char c = name.charAt(k);
      if (c < '0' || c > '9' || num >= 100_000_000) {
        return -1;
      }
      num = num * 10 + (c - '0');
    }
    return num;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RelabelRegex && ((RelabelRegex) o).source.equals(source);
  }

  @Override
  public int hashCode() {
    return source.hashCode();
  }

  @Override
  public String toString() {
    return source;
  }
}
