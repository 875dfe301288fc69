package dev.infermon.lint.grafana;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces Grafana template variables ({@code $model}, {@code ${namespace}}, {@code
 * ${model:regex}}, {@code [[pod]]}, {@code $__rate_interval}) with placeholders that parse and
 * never trigger a check by themselves: {@code .*} inside a quoted matcher value, a duration inside
 * a range ({@code [...]}), a reserved-looking label name inside a grouping, and {@code NaN} where a
 * number goes (lint skips NaN thresholds). Keeps, for each character of the result, its offset in
 * the original text so findings point at the dashboard's own expression. Stateless.
 */
public final class TemplateVariables {
  private static final Pattern VAR =
      Pattern.compile(
          "\\$\\{([A-Za-z0-9_]+)(?::[^}]*)?}|\\[\\[([A-Za-z0-9_]+)(?::[^\\]]*)?]]|\\$([A-Za-z0-9_]+)");
  private static final Pattern OFFSET_BEFORE = Pattern.compile("(?i)\\boffset\\s*-?\\s*$");
  private static final Pattern GROUPING_KEYWORD =
      Pattern.compile("(?:by|without|on|ignoring|group_left|group_right)\\s*$");

  /** What a substitution gives. */
  public record Result(String text, int[] originalOffsets, List<String> variables) {
    public Result {
      originalOffsets = originalOffsets.clone();
      variables = List.copyOf(variables);
    }

    /** The offset in the original text of offset {@code i} of the result. */
    public int original(int i) {
      if (originalOffsets.length == 0) {
        return 0;
      }
      return originalOffsets[Math.max(0, Math.min(i, originalOffsets.length - 1))];
    }
  }

  private TemplateVariables() {}

  /** {@code expr} with every variable replaced. */
  public static Result substitute(String expr) {
    StringBuilder out = new StringBuilder();
    List<Integer> map = new ArrayList<>();
    List<String> vars = new ArrayList<>();
    Matcher m = VAR.matcher(expr);
    int last = 0;
    while (m.find()) {
      copy(expr, last, m.start(), out, map);
      String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      vars.add(name);
      String placeholder = placeholder(expr, m.start(), name);
      for (int i = 0; i < placeholder.length(); i++) {
        out.append(placeholder.charAt(i));
        map.add(m.start());
      }
      last = m.end();
    }
    copy(expr, last, expr.length(), out, map);
    map.add(expr.length());
    int[] offsets = new int[map.size()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = map.get(i);
    }
    return new Result(out.toString(), offsets, vars);
  }

  private static void copy(String s, int from, int to, StringBuilder out, List<Integer> map) {
    for (int i = from; i < to; i++) {
      out.append(s.charAt(i));
      map.add(i);
    }
  }

  /** The placeholder for a variable at {@code at}, chosen by what surrounds it. */
  static String placeholder(String expr, int at, String name) {
    boolean quoted = false;
    char quote = 0;
    int bracket = 0;
    int paren = -1;
    List<Integer> parens = new ArrayList<>();
    for (int i = 0; i < at; i++) {
      char c = expr.charAt(i);
      if (quoted) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quoted = false;
        }
        continue;
      }
      if (c == '"' || c == '\'' || c == '`') {
        quoted = true;
        quote = c;
      } else if (c == '[') {
        bracket++;
      } else if (c == ']') {
        bracket = Math.max(0, bracket - 1);
      } else if (c == '(') {
        parens.add(i);
      } else if (c == ')' && !parens.isEmpty()) {
        parens.remove(parens.size() - 1);
      }
    }
    if (!parens.isEmpty()) {
      paren = parens.get(parens.size() - 1);
    }
    if (quoted) {
      return ".*";
    }
    // a range, or an offset (`x offset $__interval`): a duration
    if (bracket > 0 || OFFSET_BEFORE.matcher(expr.substring(0, at)).find()) {
      return "5m";
    }
    if (paren >= 0 && GROUPING_KEYWORD.matcher(expr.substring(0, paren)).find()) {
      return "__tmpl_" + name;
    }
    return "NaN";
  }
}
