package dev.infermon.rules.rulefmt;

/**
 * One problem in a rule file, printed as Prometheus prints it: {@code rules.yml: 5:15: group "g1",
 * rule 1, "job:up:sum": could not parse expression: ...}. Structural problems that belong to no
 * rule (YAML syntax, unknown keys, a repeated group name) have {@code rule} 0.
 *
 * @param line 1-based line, 0 when unknown
 * @param column 1-based column, 0 when unknown
 * @param rule 1-based index of the rule in its group, 0 when the problem is not about a rule
 */
public record RuleError(
    String file, int line, int column, String group, int rule, String ruleName, String message) {
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(file).append(": ");
    if (line > 0) {
      sb.append(line).append(':').append(column).append(": ");
    }
    if (rule > 0) {
      sb.append("group \"")
          .append(group)
          .append("\", rule ")
          .append(rule)
          .append(", \"")
          .append(ruleName)
          .append("\": ");
    }
    return sb.append(message).toString();
  }
}
