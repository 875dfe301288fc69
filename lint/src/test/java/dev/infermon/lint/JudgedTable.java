package dev.infermon.lint;

import dev.infermon.lint.run.LintResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The peer corpus's golden: per file, the endpoints it was linted against, its findings by kind and
 * reference, and every finding with a verdict ({@code true} or {@code false}) and why. Verdicts are
 * written by hand and carried over when the table is rendered again from new lint results; a
 * finding no verdict covers gets {@link #UNJUDGED}. A verdict covers a finding by file, position,
 * check and subject, whatever its severity.
 */
final class JudgedTable {
  static final String UNJUDGED = "UNJUDGED";
  private static final Pattern AT = Pattern.compile("\\d+:\\d+");

  /** A verdict and its reason. */
  record Verdict(String verdict, String why) {}

  /** One finding as the table shows it, with the references that gave it. */
  record Row(String at, String check, String severity, String subject, List<String> against) {
    String key(String file) {
      return file + " " + at + " " + check + " " + subject;
    }
  }

  private JudgedTable() {}

  /** The verdicts of a table's text, by {@link Row#key}. */
  static Map<String, Verdict> verdicts(String text) {
    Map<String, Verdict> out = new LinkedHashMap<>();
    String file = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("## ")) {
        file = line.substring(3).strip();
        continue;
      }
      List<String> cells = cells(line);
      if (file == null || cells.size() != 7 || !AT.matcher(cells.get(0)).matches()) {
        continue;
      }
      String key = file + " " + cells.get(0) + " " + cells.get(1) + " " + cells.get(3);
      out.put(key, new Verdict(cells.get(5), cells.get(6)));
    }
    return out;
  }

  /** The cells of a markdown table row ({@code | a | b |}), or empty for another line. */
  static List<String> cells(String line) {
    if (!line.startsWith("| ") || !line.endsWith(" |")) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String c : line.substring(1, line.length() - 1).split(" \\| ", -1)) {
      out.add(c.strip());
    }
    return out;
  }

  /** The findings of one file against each reference, merged into rows in file order. */
  static List<Row> rows(Map<String, LintResult> byReference) {
    Map<String, Row> rows = new TreeMap<>(JudgedTable::byPosition);
    byReference.forEach(
        (ref, r) ->
            r.findings()
                .forEach(
                    f -> {
                      String at = f.location().line() + ":" + f.location().column();
                      String key =
                          at
                              + " "
                              + f.check().id()
                              + " "
                              + f.severity().label()
                              + " "
                              + f.subject();
                      rows.computeIfAbsent(
                              key,
                              k ->
                                  new Row(
                                      at,
                                      f.check().id(),
                                      f.severity().label(),
                                      f.subject(),
                                      new ArrayList<>()))
                          .against()
                          .add(ref);
                    }));
    return List.copyOf(rows.values());
  }

  private static int byPosition(String a, String b) {
    String[] x = a.split("[: ]", 3);
    String[] y = b.split("[: ]", 3);
    int c = Integer.compare(Integer.parseInt(x[0]), Integer.parseInt(y[0]));
    if (c == 0) {
      c = Integer.compare(Integer.parseInt(x[1]), Integer.parseInt(y[1]));
    }
    return c != 0 ? c : x[2].compareTo(y[2]);
  }

  /** Findings per check and reference: the "by kind" table of a file. */
  static Map<String, Map<String, Integer>> byKind(Map<String, LintResult> byReference) {
    Map<String, Map<String, Integer>> out = new TreeMap<>();
    byReference.forEach(
        (ref, r) ->
            r.findings()
                .forEach(
                    f ->
                        out.computeIfAbsent(f.check().id(), k -> new LinkedHashMap<>())
                            .merge(ref, 1, Integer::sum)));
    return out;
  }
}
