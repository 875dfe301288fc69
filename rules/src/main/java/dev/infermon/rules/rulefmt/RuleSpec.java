package dev.infermon.rules.rulefmt;

import dev.infermon.promql.parser.Expr;
import dev.infermon.rules.template.Template;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One validated rule of a rule file. Labels and annotations keep file order; for alerting rules
 * their templates are parsed already ({@link #labelTemplates()}, {@link #annotationTemplates()}),
 * so evaluation never meets a template that does not parse.
 *
 * @param alert true for an alerting rule, false for a recording rule
 * @param name the alert name or the recorded metric name
 * @param exprText the expression as written
 * @param expr the parsed expression
 * @param forDuration {@code for}, zero when absent
 * @param keepFiringFor {@code keep_firing_for}, zero when absent
 * @param line where the rule starts (1-based)
 */
public record RuleSpec(
    boolean alert,
    String name,
    String exprText,
    Expr expr,
    Duration forDuration,
    Duration keepFiringFor,
    Map<String, String> labels,
    Map<String, String> annotations,
    Map<String, Template> labelTemplates,
    Map<String, Template> annotationTemplates,
    int line) {
  public RuleSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(expr, "expr");
    labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    annotations = Collections.unmodifiableMap(new LinkedHashMap<>(annotations));
    labelTemplates = Collections.unmodifiableMap(new LinkedHashMap<>(labelTemplates));
    annotationTemplates = Collections.unmodifiableMap(new LinkedHashMap<>(annotationTemplates));
  }
}
