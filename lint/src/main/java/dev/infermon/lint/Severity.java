package dev.infermon.lint;

import java.util.Locale;

/** How bad a finding is. Errors fail a CI run (exit code 1); warnings and infos do not. */
public enum Severity {
  /** The query is wrong: an empty panel, an alert that never fires, a value that misleads. */
  ERROR,
  /** The query works but is fragile or probably not what was meant. */
  WARNING,
  /** Worth knowing; nothing to fix. */
  INFO;

  /** The lower-case name used in text, JSON and the API. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The SARIF {@code level} of this severity. */
  public String sarifLevel() {
    switch (this) {
      case ERROR:
        return "error";
      case WARNING:
        return "warning";
      default:
        return "note";
    }
  }

  /**
   * The severity named {@code s} ({@code error}, {@code warning}, {@code info}).
   *
   * @throws IllegalArgumentException naming the value when it is none of them
   */
  public static Severity parse(String s) {
    for (Severity v : values()) {
      if (v.label().equals(s)) {
        return v;
      }
    }
    throw new IllegalArgumentException("unknown severity: \"" + s + "\" (error, warning or info)");
  }
}
