package dev.infermon.lint.run;

import java.util.Locale;

/**
 * One thing to lint: a rule file, a Grafana dashboard or a bare expression, with its text.
 * Immutable.
 *
 * @param name the file name or label used in locations
 * @param kind what the text is
 * @param text the content
 */
public record LintInput(String name, Kind kind, String text) {
  /** What an input is. */
  public enum Kind {
    RULES,
    DASHBOARD,
    EXPR;

    /** The lower-case name used on the command line and in the API. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public LintInput {
    if (name == null || name.isEmpty() || kind == null || text == null) {
      throw new IllegalArgumentException("an input needs a name, a kind and text");
    }
  }

  /** A file whose kind is guessed from its name and content: JSON is a dashboard, else rules. */
  public static LintInput file(String name, String text) {
    String lower = name.toLowerCase(Locale.ROOT);
    boolean json = lower.endsWith(".json") || text.stripLeading().startsWith("{");
    return new LintInput(name, json ? Kind.DASHBOARD : Kind.RULES, text);
  }

  /** A bare PromQL expression. */
  public static LintInput expr(String label, String expr) {
    return new LintInput(label, Kind.EXPR, expr);
  }
}
