package dev.infermon.lint.rulesfile;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Finding;
import dev.infermon.lint.LintQuery;
import dev.infermon.lint.Location;
import dev.infermon.rules.rulefmt.GroupSpec;
import dev.infermon.rules.rulefmt.RuleError;
import dev.infermon.rules.rulefmt.RuleFile;
import dev.infermon.rules.rulefmt.RuleFileException;
import dev.infermon.rules.rulefmt.RuleFileParser;
import dev.infermon.rules.rulefmt.RuleSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * A Prometheus rule file as lint input: loaded with the rules module's strict loader (so a file
 * Prometheus would refuse gives its errors, as {@code parse-error} findings), then one {@link
 * LintQuery} per rule, located at its {@code expr} in the file. Immutable.
 *
 * @param queries the rules' expressions
 * @param recorded the metric names the file's recording rules produce
 * @param problems findings of the loader (the file does not load)
 */
public record RuleFileInput(List<LintQuery> queries, Set<String> recorded, List<Finding> problems) {
  public RuleFileInput {
    queries = List.copyOf(queries);
    recorded = Set.copyOf(recorded);
    problems = List.copyOf(problems);
  }

  /** Reads rule-file text; {@code file} names it in locations. */
  public static RuleFileInput read(String file, String text) {
    RuleFile rf;
    try {
      rf = RuleFileParser.parse(file, text);
    } catch (RuleFileException e) {
      List<Finding> problems = new ArrayList<>();
      for (RuleError err : e.errors()) {
        Location at =
            err.rule() > 0
                ? Location.inRule(file, err.line(), err.column(), err.group(), err.ruleName())
                : Location.at(file, err.line(), err.column());
        problems.add(Finding.of(CheckId.PARSE_ERROR, at, err.message(), "", ""));
      }
      return new RuleFileInput(List.of(), Set.of(), problems);
    }
    String[] lines = text.split("\n", -1);
    List<LintQuery> queries = new ArrayList<>();
    Set<String> recorded = new TreeSet<>();
    for (GroupSpec g : rf.groups()) {
      for (RuleSpec r : g.rules()) {
        if (!r.alert()) {
          recorded.add(r.name());
        }
        Location ruleAt = Location.inRule(file, r.line(), 0, g.name(), r.name());
        queries.add(
            new LintQuery(
                r.exprText(),
                r.alert() ? LintQuery.Kind.ALERT : LintQuery.Kind.RECORD,
                r.forDuration(),
                locator(lines, r.line(), ruleAt)));
      }
    }
    return new RuleFileInput(queries, recorded, List.of());
  }

  /**
   * Maps offsets in a rule's expression to file positions: finds the rule's {@code expr:} key at or
   * after its first line, then follows an inline value (plain or quoted) along its line or a block
   * value ({@code |}, {@code >}) along its indented lines. Escapes inside quoted values shift
   * columns slightly; lines stay exact.
   */
  static IntFunction<Location> locator(String[] lines, int ruleLine, Location ruleAt) {
    int start = Math.max(0, ruleLine - 1);
    int ruleIndent = indent(lines, start);
    for (int i = start; i < lines.length; i++) {
      String l = lines[i];
      if (i > start && !l.isBlank() && indentOf(l) <= ruleIndent && l.trim().startsWith("-")) {
        break;
      }
      int k = exprKey(l);
      if (k < 0) {
        continue;
      }
      int v = k + "expr:".length();
      while (v < l.length() && l.charAt(v) == ' ') {
        v++;
      }
      String value = l.substring(Math.min(v, l.length())).trim();
      if (value.startsWith("|") || value.startsWith(">")) {
        return block(lines, i + 1, ruleAt);
      }
      int col = v + 1 + (value.startsWith("\"") || value.startsWith("'") ? 1 : 0);
      int line = i + 1;
      return offset -> ruleAt.moved(line, col + offset);
    }
    return offset -> ruleAt;
  }

  private static IntFunction<Location> block(String[] lines, int first, Location ruleAt) {
    int ind = first < lines.length ? indentOf(lines[first]) : 0;
    return offset -> {
      int remaining = offset;
      for (int i = first; i < lines.length; i++) {
        int len = Math.max(0, lines[i].length() - ind);
        if (remaining <= len) {
          return ruleAt.moved(i + 1, ind + remaining + 1);
        }
        remaining -= len + 1;
      }
      return ruleAt.moved(first + 1, ind + 1);
    };
  }

  /** The column of an {@code expr:} key on the line, or -1. */
  private static int exprKey(String l) {
    String t = l.stripLeading();
    int lead = l.length() - t.length();
    if (t.startsWith("- ")) {
      t = t.substring(2).stripLeading();
      lead = l.length() - t.length();
    }
    return t.startsWith("expr:") ? lead : -1;
  }

  private static int indent(String[] lines, int i) {
    return i < lines.length ? indentOf(lines[i]) : 0;
  }

  private static int indentOf(String l) {
    int n = 0;
    while (n < l.length() && l.charAt(n) == ' ') {
      n++;
    }
    return n;
  }
}
