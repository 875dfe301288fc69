package dev.infermon.model.relabel;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites an RE2 (Go {@code regexp}) pattern into an equivalent {@code java.util.regex} pattern.
 *
 * <p>The dialects agree on most syntax; this class handles the places where they do not, so that
 * a relabel regex copied from a prometheus.yml behaves the same here:
 *
 * <ul>
 *   <li>named groups {@code (?P<name>...)} and {@code (?<name>...)} become plain groups, because
 *       Java forbids {@code _} in group names; the names are kept by group index for {@code $name}
 *       expansion;
 *   <li>inside a character class, {@code [} and {@code &} are literals in RE2 but operators in
 *       Java, and POSIX classes {@code [:alpha:]} become {@code \p{Alpha}};
 *   <li>a {@code {} that does not start a repetition is a literal in RE2 but an error in Java;
 *   <li>outside multi-line mode {@code $} matches only at the very end in RE2 ({@code \z}), while
 *       Java's {@code $} also matches before a final line terminator;
 *   <li>{@code \v} is the vertical-tab character in RE2 but a class in Java;
 *   <li>Perl syntax that RE2 rejects (look-around, atomic groups, back-references, possessive
 *       quantifiers, {@code \C}) is rejected here too, with RE2's wording.
 * </ul>
 */
final class GoRegexTranslator {
  private static final Map<String, String> POSIX_CLASSES =
      Map.ofEntries(
          Map.entry("alnum", "Alnum"),
          Map.entry("alpha", "Alpha"),
          Map.entry("ascii", "ASCII"),
          Map.entry("blank", "Blank"),
          Map.entry("cntrl", "Cntrl"),
          Map.entry("digit", "Digit"),
          Map.entry("graph", "Graph"),
          Map.entry("lower", "Lower"),
          Map.entry("print", "Print"),
          Map.entry("punct", "Punct"),
          Map.entry("space", "Space"),
          Map.entry("upper", "Upper"),
          Map.entry("word", "word"), // handled specially: [[:word:]] = \w
          Map.entry("xdigit", "XDigit"));

  /** The translated pattern and the name of each capturing group (index 0 is the whole match). */
  record Translation(String javaPattern, List<String> groupNames) {}

  private final String re;
  private final StringBuilder out = new StringBuilder();
  private final List<String> names = new ArrayList<>();
  private final boolean multiLine;
  private int i;

  private GoRegexTranslator(String re) {
    this.re = re;
    // A pattern that turns on multi-line mode anywhere keeps Java's $, which then agrees with RE2.
    this.multiLine = re.matches("(?s).*\\(\\?[a-zA-Z]*m[a-zA-Z-]*[:)].*");
    names.add(null);
  }

  /**
   * Translates a pattern.
   *
   * @throws IllegalArgumentException with RE2's wording for syntax RE2 rejects
   */
  static Translation translate(String re) {
    GoRegexTranslator t = new GoRegexTranslator(re);
    t.run();
    return new Translation(t.out.toString(), t.namesWithNulls());
  }

  private List<String> namesWithNulls() {
    return java.util.Collections.unmodifiableList(new ArrayList<>(names));
  }

  private void run() {
    Set<String> seenNames = new HashSet<>();
    while (i < re.length()) {
      char c = re.charAt(i);
      switch (c) {
        case '\\':
          escapeOutsideClass();
          break;
        case '[':
          charClass();
          break;
        case '(':
          group(seenNames);
          break;
        case '{':
          brace();
          break;
        case '$':
          out.append(multiLine ? "$" : "\\z");
          i++;
          break;
        case '*':
        case '+':
        case '?':
          out.append(c);
          i++;
          rejectNestedRepetition(c);
          break;
        default:
          out.append(c);
          i++;
      }
    }
  }

  private void rejectNestedRepetition(char op) {
    // A lazy '?' after a quantifier is fine in both; '+' after one is Java's possessive form.
    if (i < re.length() && re.charAt(i) == '+') {
      throw syntax("invalid nested repetition operator: `" + op + "+`");
    }
    if (i < re.length() && re.charAt(i) == '?') {
      out.append('?');
      i++;
    }
    if (i < re.length() && (re.charAt(i) == '*' || re.charAt(i) == '+')) {
      throw syntax("invalid nested repetition operator: `" + op + re.charAt(i) + "`");
    }
  }

  private void escapeOutsideClass() {
    if (i + 1 >= re.length()) {
      throw syntax("trailing backslash at end of expression: ``");
    }
    char n = re.charAt(i + 1);
    if (n == 'Q') {
      int end = re.indexOf("\\E", i + 2);
      int stop = end < 0 ? re.length() : end + 2;
      out.append(re, i, stop);
      if (end < 0) {
        out.append("\\E");
      }
      i = stop;
      return;
    }
    if (n >= '1' && n <= '9') {
      throw syntax("invalid escape sequence: `\\" + n + "`");
    }
    if (n == 'C' || n == 'Z' || n == 'G' || n == 'R' || n == 'X' || n == 'K' || n == 'h') {
      throw syntax("invalid escape sequence: `\\" + n + "`");
    }
    if (n == 'v') {
      out.append("\\x0B");
    } else {
      out.append('\\').append(n);
    }
    i += 2;
  }

  private void charClass() {
    out.append('[');
    i++;
    if (i < re.length() && re.charAt(i) == '^') {
      out.append('^');
      i++;
    }
    if (i < re.length() && re.charAt(i) == ']') {
      out.append("\\]"); // a leading ] is a literal in RE2
      i++;
    }
    while (i < re.length()) {
      char c = re.charAt(i);
      if (c == ']') {
        out.append(']');
        i++;
        return;
      }
      if (c == '\\') {
        if (i + 1 >= re.length()) {
          throw syntax("trailing backslash at end of expression: ``");
        }
        char n = re.charAt(i + 1);
        if (n == 'v') {
          out.append("\\x0B");
        } else {
          out.append('\\').append(n);
        }
        i += 2;
      } else if (c == '[' && re.startsWith("[:", i)) {
        posixClass();
      } else if (c == '[' || c == '&') {
        out.append('\\').append(c);
        i++;
      } else {
        out.append(c);
        i++;
      }
    }
    throw syntax("missing closing ]: `" + re.substring(re.lastIndexOf('[')) + "`");
  }

  private void posixClass() {
    int end = re.indexOf(":]", i + 2);
    if (end < 0) {
      out.append("\\[");
      i++;
      return;
    }
    String name = re.substring(i + 2, end);
    boolean negated = name.startsWith("^");
    if (negated) {
      name = name.substring(1);
    }
    String java = POSIX_CLASSES.get(name);
    if (java == null) {
      throw syntax("invalid character class range: `" + re.substring(i, end + 2) + "`");
    }
    if (name.equals("word")) {
      out.append(negated ? "\\W" : "\\w");
    } else {
      out.append(negated ? "\\P{" : "\\p{").append(java).append('}');
    }
    i = end + 2;
  }

  private void group(Set<String> seenNames) {
    if (!re.startsWith("(?", i)) {
      names.add(null);
      out.append('(');
      i++;
      return;
    }
    int nameStart;
    if (re.startsWith("(?P<", i)) {
      nameStart = i + 4;
    } else if (re.startsWith("(?<", i) && !re.startsWith("(?<=", i) && !re.startsWith("(?<!", i)) {
      nameStart = i + 3;
    } else {
      flagsOrNonCapturing();
      return;
    }
    int close = re.indexOf('>', nameStart);
    String name = close < 0 ? "" : re.substring(nameStart, close);
    if (close < 0 || name.isEmpty() || !name.matches("[A-Za-z0-9_]+")) {
      throw syntax(
          "invalid named capture: `" + re.substring(i, close < 0 ? re.length() : close + 1) + "`");
    }
    if (!seenNames.add(name)) {
      throw syntax("duplicate capture group name: `" + name + "`");
    }
    names.add(name);
    out.append('(');
    i = close + 1;
  }

  private void flagsOrNonCapturing() {
    int j = i + 2;
    while (j < re.length() && "imsU-".indexOf(re.charAt(j)) >= 0) {
      j++;
    }
    if (j < re.length() && (re.charAt(j) == ':' || re.charAt(j) == ')')) {
      String flags = re.substring(i + 2, j);
      if (flags.indexOf('U') >= 0) {
        // RE2's U (ungreedy) has no Java equivalent; Java's (?U) means something else entirely.
        throw syntax("unsupported flag U in: `" + re.substring(i, j + 1) + "`");
      }
      out.append(re, i, j + 1);
      i = j + 1;
      return;
    }
    int end = Math.min(re.length(), i + 3);
    throw syntax("invalid or unsupported Perl syntax: `" + re.substring(i, end) + "`");
  }

  private void brace() {
    int close = re.indexOf('}', i);
    if (close > 0 && re.substring(i + 1, close).matches("[0-9]+(,[0-9]*)?")) {
      out.append(re, i, close + 1);
      i = close + 1;
      rejectNestedRepetition('}');
      return;
    }
    out.append("\\{"); // not a repetition: a literal in RE2
    i++;
  }

  private IllegalArgumentException syntax(String what) {
    return new IllegalArgumentException("error parsing regexp: " + what);
  }
}
