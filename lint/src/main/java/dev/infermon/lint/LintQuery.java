package dev.infermon.lint;

import java.time.Duration;
import java.util.function.IntFunction;

/**
 * One PromQL expression to check, with where it came from. Rule files, dashboards and the command
 * line all reduce to these. Immutable.
 *
 * @param expr the expression as it will be parsed (for dashboards: with template variables already
 *     replaced)
 * @param kind what the expression is for
 * @param forDuration an alerting rule's {@code for}; zero otherwise
 * @param locator the location of a character offset in {@code expr} (the start is offset 0)
 * @param legend a dashboard target's legend format ({@code {{pod}}}), empty otherwise
 */
public record LintQuery(
    String expr, Kind kind, Duration forDuration, IntFunction<Location> locator, String legend) {
  /** What an expression is for: some checks apply to alerts only. */
  public enum Kind {
    ALERT,
    RECORD,
    PANEL,
    EXPR
  }

  public LintQuery {
    if (expr == null || kind == null || forDuration == null || locator == null) {
      throw new IllegalArgumentException("expr, kind, forDuration and locator are required");
    }
    legend = legend == null ? "" : legend;
  }

  /** A query without a legend. */
  public LintQuery(String expr, Kind kind, Duration forDuration, IntFunction<Location> locator) {
    this(expr, kind, forDuration, locator, "");
  }

  /** An ad-hoc expression (command line, API) located as {@code label:1:col}. */
  public static LintQuery of(String expr, String label) {
    return new LintQuery(expr, Kind.EXPR, Duration.ZERO, offset -> lineColumn(label, expr, offset));
  }

  /** The location of the expression's start. */
  public Location start() {
    return locator.apply(0);
  }

  /** The location of {@code offset} in the expression. */
  public Location at(int offset) {
    return locator.apply(offset);
  }

  /**
   * The 1-based line and column of {@code offset} in {@code text}, as a location in {@code file}.
   */
  public static Location lineColumn(String file, String text, int offset) {
    int line = 1;
    int lineStart = 0;
    int end = Math.max(0, Math.min(offset, text.length()));
    for (int i = 0; i < end; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return Location.at(file, line, end - lineStart + 1);
  }
}
