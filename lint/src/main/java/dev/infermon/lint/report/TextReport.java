package dev.infermon.lint.report;

import dev.infermon.lint.Finding;
import dev.infermon.lint.Severity;
import dev.infermon.lint.run.LintResult;

/**
 * Lint results as compilers print them: {@code file:line:col: severity: message [check]}, then the
 * rule or panel and the fix indented below, then a summary line. Stateless.
 */
public final class TextReport {
  private TextReport() {}

  public static String render(LintResult r) {
    StringBuilder sb = new StringBuilder();
    for (Finding f : r.findings()) {
      sb.append(f.location().position())
          .append(": ")
          .append(f.severity().label())
          .append(": ")
          .append(f.message())
          .append(" [")
          .append(f.check().id())
          .append("]\n");
      String ctx = f.location().context();
      if (!ctx.isEmpty()) {
        sb.append("    in ").append(ctx).append('\n');
      }
      if (!f.fix().isEmpty()) {
        sb.append("    fix: ").append(f.fix()).append('\n');
      }
    }
    sb.append(plural(r.count(Severity.ERROR), "error"))
        .append(", ")
        .append(plural(r.count(Severity.WARNING), "warning"))
        .append(", ")
        .append(plural(r.count(Severity.INFO), "info"))
        .append(" in ")
        .append(plural(r.inputs(), "input"))
        .append(" (")
        .append(plural(r.queries(), "query", "queries"))
        .append(") checked against ")
        .append(r.reference())
        .append('\n');
    return sb.toString();
  }

  private static String plural(long n, String one) {
    return plural(n, one, one + "s");
  }

  private static String plural(long n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }
}
