package dev.infermon.server.demo;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The text of a golden file: generated fact lines, and reviewers' comments, which the comparison
 * ignores and regeneration keeps. A comment starts at a {@code #} outside double quotes that begins
 * the line or follows a blank ({@code ... # WRONG: why}); a comment on a line of its own belongs to
 * the next fact line. The leading comment block is the generated header; while it holds the {@link
 * #UNREVIEWED} line the golden is not accepted. Stateless.
 */
final class GoldenFile {
  /** The first line of a golden nobody has reviewed yet; the reviewer deletes it. */
  static final String UNREVIEWED =
      "# UNREVIEWED: read every line against the capture, mark each false one with"
          + " '# WRONG: <why, citing the capture line>', then delete this line.";

  private GoldenFile() {}

  /**
   * The fact lines of {@code text}: comments cut off, trailing blanks stripped, empty lines left
   * out.
   */
  static List<String> facts(String text) {
    List<String> out = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      String fact = fact(line);
      if (!fact.isEmpty()) {
        out.add(fact);
      }
    }
    return out;
  }

  /** Whether nobody has to review {@code text} any more. */
  static boolean reviewed(String text) {
    for (String line : text.split("\n", -1)) {
      if (line.strip().equals(UNREVIEWED)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The golden text for {@code facts}: the {@code header} as comments, then the facts, each with
   * the comments its identical fact line had in {@code old} (null: a new golden, which starts
   * unreviewed; an old one stays unreviewed while it is).
   *
   * @throws IllegalArgumentException for a fact that holds a comment or a line break, which the
   *     file could not give back
   */
  static String regenerate(String old, List<String> header, List<String> facts) {
    Map<String, Deque<Carried>> carried = new HashMap<>();
    Map<String, Deque<Carried>> byShape = new HashMap<>();
    if (old != null) {
      List<String> pending = new ArrayList<>();
      boolean inHeader = true;
      for (String line : old.split("\n", -1)) {
        String fact = fact(line);
        if (fact.isEmpty()) {
          if (line.isBlank()) {
            inHeader = false;
          } else if (!inHeader) {
            pending.add(line.strip());
          }
          continue;
        }
        inHeader = false;
        String trailing = line.substring(fact.length()).strip();
        Carried c = new Carried(List.copyOf(pending), trailing);
        carried.computeIfAbsent(fact, k -> new ArrayDeque<>()).add(c);
        byShape.computeIfAbsent(withoutPositions(fact), k -> new ArrayDeque<>()).add(c);
        pending.clear();
      }
    }
    StringBuilder sb = new StringBuilder();
    if (old == null || !reviewed(old)) {
      sb.append(UNREVIEWED).append('\n');
    }
    for (String h : header) {
      sb.append("# ").append(h).append('\n');
    }
    sb.append('\n');
    for (String fact : facts) {
      if (fact.contains("\n") || !fact(fact).equals(fact)) {
        throw new IllegalArgumentException("a fact line must hold no comment or break: " + fact);
      }
      Carried c = take(carried.get(fact));
      if (c == null) {
        // a finding whose file position moved (the exported dashboard grew) keeps its comments
        c = take(byShape.get(withoutPositions(fact)));
      }
      if (c != null) {
        c.before.forEach(b -> sb.append(b).append('\n'));
      }
      sb.append(fact);
      if (c != null && !c.trailing.isEmpty()) {
        sb.append("  ").append(c.trailing);
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /**
   * The lines only {@code expected} has ({@code - }) and only {@code actual} has ({@code + }), in
   * order (a longest common subsequence); empty when they are equal.
   */
  static List<String> diff(List<String> expected, List<String> actual) {
    int n = expected.size();
    int m = actual.size();
    int[][] lcs = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        lcs[i][j] =
            expected.get(i).equals(actual.get(j))
                ? lcs[i + 1][j + 1] + 1
                : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    List<String> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && expected.get(i).equals(actual.get(j))) {
        i++;
        j++;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        out.add("- " + expected.get(i++));
      } else {
        out.add("+ " + actual.get(j++));
      }
    }
    return out;
  }

  /** A fact line's comments: the comment lines above it and its trailing comment. */
  private static final class Carried {
    final List<String> before;
    final String trailing;
    boolean taken;

    Carried(List<String> before, String trailing) {
      this.before = before;
      this.trailing = trailing;
    }
  }

  /** The first comments of {@code q} that no fact line has taken yet, now taken; null if none. */
  private static Carried take(Deque<Carried> q) {
    while (q != null && !q.isEmpty()) {
      Carried c = q.poll();
      if (!c.taken) {
        c.taken = true;
        return c;
      }
    }
    return null;
  }

  private static final Pattern POSITION = Pattern.compile(" at (\\S+?):\\d+:\\d+ ");

  /** {@code fact} with its {@code at file:line:column} positions blanked. */
  static String withoutPositions(String fact) {
    return POSITION.matcher(fact).replaceAll(" at $1:_:_ ");
  }

  /** {@code line} without its comment and trailing blanks. */
  private static String fact(String line) {
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted && c == '\\') {
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return line.substring(0, i).stripTrailing();
      }
    }
    return line.stripTrailing();
  }
}
