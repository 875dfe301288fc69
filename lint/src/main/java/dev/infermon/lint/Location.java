package dev.infermon.lint;

/**
 * Where a finding is: a file position (1-based line and column, 0 when unknown) and, depending on
 * the input, the rule group and rule, or the dashboard, panel title and target {@code refId}.
 * Fields that do not apply are empty strings. Immutable.
 *
 * @param file the file as given, or a label such as {@code <expr>} or {@code <slo llama-ttft>}
 * @param line 1-based line, 0 when unknown
 * @param column 1-based column, 0 when unknown
 * @param group the rule group (rule files)
 * @param rule the alert or recorded metric name (rule files)
 * @param dashboard the dashboard title (Grafana)
 * @param panel the panel title, nested rows joined with " / " (Grafana)
 * @param refId the target's refId (Grafana)
 */
public record Location(
    String file,
    int line,
    int column,
    String group,
    String rule,
    String dashboard,
    String panel,
    String refId) {
  public Location {
    if (file == null || file.isEmpty()) {
      throw new IllegalArgumentException("a location needs a file or label");
    }
    if (line < 0 || column < 0) {
      throw new IllegalArgumentException("negative position: " + line + ":" + column);
    }
    group = nullToEmpty(group);
    rule = nullToEmpty(rule);
    dashboard = nullToEmpty(dashboard);
    panel = nullToEmpty(panel);
    refId = nullToEmpty(refId);
  }

  /** A position in a file or expression with nothing else known. */
  public static Location at(String file, int line, int column) {
    return new Location(file, line, column, "", "", "", "", "");
  }

  /** A position inside a rule of a rule file. */
  public static Location inRule(String file, int line, int column, String group, String rule) {
    return new Location(file, line, column, group, rule, "", "", "");
  }

  /** A position inside a target of a dashboard panel. */
  public static Location inPanel(
      String file, int line, int column, String dashboard, String panel, String refId) {
    return new Location(file, line, column, "", "", dashboard, panel, refId);
  }

  /** The same location moved to another line and column. */
  public Location moved(int newLine, int newColumn) {
    return new Location(file, newLine, newColumn, group, rule, dashboard, panel, refId);
  }

  /** {@code file:line:col}, as compilers print it (line and column left out when unknown). */
  public String position() {
    if (line == 0) {
      return file;
    }
    return file + ":" + line + (column == 0 ? "" : ":" + column);
  }

  /** The rule or panel this location is in, for humans; empty when neither applies. */
  public String context() {
    if (!dashboard.isEmpty() || !panel.isEmpty()) {
      StringBuilder sb = new StringBuilder("dashboard \"").append(dashboard).append('"');
      if (!panel.isEmpty()) {
        sb.append(", panel \"").append(panel).append('"');
      }
      if (!refId.isEmpty()) {
        sb.append(", target ").append(refId);
      }
      return sb.toString();
    }
    if (!rule.isEmpty()) {
      return "group \"" + group + "\", rule \"" + rule + "\"";
    }
    return "";
  }

  @Override
  public String toString() {
    String c = context();
    return c.isEmpty() ? position() : position() + " (" + c + ")";
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
