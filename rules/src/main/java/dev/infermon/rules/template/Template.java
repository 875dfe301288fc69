package dev.infermon.rules.template;

import java.util.List;
import java.util.Objects;

/**
 * A parsed template in Go's {@code text/template} language with Prometheus's functions, as alert
 * labels and annotations use it: {@code {{ $labels.instance }}}, {@code {{ $value | humanize }}},
 * {@code {{ range query "up" }}...{{ end }}}. Parsing checks what Go checks at parse time (syntax,
 * unknown functions, undefined variables), so a broken template is an error when the rule file
 * loads.
 *
 * <p>Supported: text and actions with trim markers and comments; pipelines; variables ({@code :=},
 * {@code =}); {@code if}/{@code else if}/{@code else}, {@code range} (lists, maps, {@code else}),
 * {@code with}; fields of maps and of {@link TemplateData}; Go's builtins and Prometheus's template
 * functions. Not supported (a load error): {@code define}, {@code template}, {@code block}, {@code
 * break}, {@code continue}, methods such as {@code toTime}.
 *
 * <p>Immutable and thread-safe.
 */
public final class Template {
  private final String name;
  private final String text;
  private final List<String> variables;
  private final Node.ListNode root;

  private Template(String name, String text, List<String> variables, Node.ListNode root) {
    this.name = name;
    this.text = text;
    this.variables = variables;
    this.root = root;
  }

  /**
   * Parses a template.
   *
   * @param name the template's name in messages (Prometheus uses {@code __alert_NAME})
   * @param variables variables declared before the text, such as {@link AlertData#VARIABLES}
   * @throws TemplateException with Go's message when the text does not parse
   */
  public static Template parse(String name, String text, List<String> variables) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(text, "text");
    List<String> vars = List.copyOf(variables);
    return new Template(name, text, vars, Parser.parse(name, text, Funcs.names(), vars));
  }

  /** Parses an alert label or annotation template (with {@code $labels}, {@code $value}, ...). */
  public static Template parseAlert(String alertName, String text) {
    return parse("__alert_" + alertName, text, AlertData.VARIABLES);
  }

  public String name() {
    return name;
  }

  public String text() {
    return text;
  }

  /** Whether the text has no action, so that expanding it returns it unchanged. */
  public boolean isPlainText() {
    return text.indexOf("{{") < 0;
  }

  /**
   * Runs the template.
   *
   * @param data dot ({@code .}); for alert templates an {@link AlertData}, whose fields are also
   *     bound to the predeclared variables
   * @param variableValues values of the variables given to {@link #parse}, in order
   * @throws TemplateExecException with Go's message when execution fails
   */
  public String execute(Object data, List<Object> variableValues, TemplateContext ctx) {
    if (variableValues.size() != variables.size()) {
      throw new IllegalArgumentException(
          "expected " + variables.size() + " variable values, got " + variableValues.size());
    }
    return new Executor(name, text, ctx).run(root, data, variables, variableValues);
  }

  /** Runs an alert template with {@code data}'s fields bound to {@code $labels}, ... */
  public String execute(AlertData data, TemplateContext ctx) {
    return execute(data, data.variableValues(), ctx);
  }
}
