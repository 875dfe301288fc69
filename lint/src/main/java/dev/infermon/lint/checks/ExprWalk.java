package dev.infermon.lint.checks;

import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.parser.AggregateExpr;
import dev.infermon.promql.parser.BinaryExpr;
import dev.infermon.promql.parser.Call;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.MatrixSelector;
import dev.infermon.promql.parser.ParenExpr;
import dev.infermon.promql.parser.StepInvariantExpr;
import dev.infermon.promql.parser.SubqueryExpr;
import dev.infermon.promql.parser.UnaryExpr;
import dev.infermon.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks a PromQL AST in source order, handing each node its ancestors (nearest last). The AST
 * carries no positions, so {@link #offsetOf} finds a selector's name in the text instead: the n-th
 * selector of a name in walk order is its n-th occurrence in the text, which holds for everything
 * the parser accepts. Stateless.
 */
final class ExprWalk {
  private ExprWalk() {}

  /** A node with its ancestors, outermost first. */
  record Node(Expr expr, List<Expr> ancestors) {
    Node {
      ancestors = List.copyOf(ancestors);
    }

    /** The nearest ancestor that is not a parenthesis, or null at the root. */
    Expr parent() {
      for (int i = ancestors.size() - 1; i >= 0; i--) {
        if (!(ancestors.get(i) instanceof ParenExpr)) {
          return ancestors.get(i);
        }
      }
      return null;
    }
  }

  /** Every node of {@code root}, parents before children, children in source order. */
  static List<Node> nodes(Expr root) {
    List<Node> out = new ArrayList<>();
    walk(root, new ArrayList<>(), out);
    return out;
  }

  private static void walk(Expr e, List<Expr> ancestors, List<Node> out) {
    out.add(new Node(e, ancestors));
    List<Expr> next = new ArrayList<>(ancestors);
    next.add(e);
    for (Expr c : children(e)) {
      walk(c, next, out);
    }
  }

  /** The direct children of {@code e}, in source order. */
  static List<Expr> children(Expr e) {
    if (e instanceof AggregateExpr) {
      AggregateExpr a = (AggregateExpr) e;
      return a.param() == null ? List.of(a.expr()) : List.of(a.param(), a.expr());
    }
    if (e instanceof BinaryExpr) {
      return List.of(((BinaryExpr) e).lhs(), ((BinaryExpr) e).rhs());
    }
    if (e instanceof Call) {
      return ((Call) e).args();
    }
    if (e instanceof MatrixSelector) {
      return List.of(((MatrixSelector) e).selector());
    }
    if (e instanceof ParenExpr) {
      return List.of(((ParenExpr) e).expr());
    }
    if (e instanceof SubqueryExpr) {
      return List.of(((SubqueryExpr) e).expr());
    }
    if (e instanceof UnaryExpr) {
      return List.of(((UnaryExpr) e).expr());
    }
    if (e instanceof StepInvariantExpr) {
      return List.of(((StepInvariantExpr) e).expr());
    }
    return List.of();
  }

  /** {@code e} without enclosing parentheses. */
  static Expr unwrap(Expr e) {
    while (e instanceof ParenExpr || e instanceof StepInvariantExpr) {
      e = e instanceof ParenExpr ? ((ParenExpr) e).expr() : ((StepInvariantExpr) e).expr();
    }
    return e;
  }

  /** The metric name a selector selects: its written name, or an equality on {@code __name__}. */
  static String metricName(VectorSelector vs) {
    if (vs.name() != null) {
      return vs.name();
    }
    for (Matcher m : vs.matchers()) {
      if (m.name().equals("__name__") && m.type() == MatchType.EQUAL) {
        return m.value();
      }
    }
    return null;
  }

  /** Every vector selector under {@code e} (matrix selectors' included). */
  static List<VectorSelector> selectors(Expr e) {
    List<VectorSelector> out = new ArrayList<>();
    for (Node n : nodes(e)) {
      if (n.expr() instanceof VectorSelector) {
        out.add((VectorSelector) n.expr());
      }
    }
    return out;
  }

  /**
   * The offset of the {@code occurrence}-th (0-based) standalone occurrence of {@code word} in
   * {@code text}, or of the last one found, or 0 when there is none.
   */
  static int offsetOf(String text, String word, int occurrence) {
    if (word == null || word.isEmpty()) {
      return 0;
    }
    int found = -1;
    int from = 0;
    int n = 0;
    while (true) {
      int i = text.indexOf(word, from);
      if (i < 0) {
        return Math.max(found, 0);
      }
      boolean startOk = i == 0 || !nameChar(text.charAt(i - 1));
      int end = i + word.length();
      boolean endOk = end >= text.length() || !nameChar(text.charAt(end));
      if (startOk && endOk) {
        found = i;
        if (n++ == occurrence) {
          return i;
        }
      }
      from = i + 1;
    }
  }

  /**
   * The offsets of the number literals in {@code text}, in order: numbers outside quotes, ranges
   * ({@code [5m]}), {@code @} times and durations ({@code offset 5m}), and {@code NaN}/{@code Inf}.
   * In walk order the n-th {@link dev.infermon.promql.parser.NumberLiteral} is the n-th of these
   * when both counts agree.
   */
  static List<Integer> numberOffsets(String text) {
    List<Integer> out = new ArrayList<>();
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '"' || c == '\'' || c == '`') {
        i = skipQuoted(text, i);
        continue;
      }
      if (c == '[') {
        int close = text.indexOf(']', i);
        i = close < 0 ? n : close + 1;
        continue;
      }
      if (nameChar(c) && !Character.isDigit(c)) {
        int end = i;
        while (end < n && nameChar(text.charAt(end))) {
          end++;
        }
        String word = text.substring(i, end);
        if ((word.equalsIgnoreCase("nan") || word.equalsIgnoreCase("inf")) && !atTime(text, i)) {
          out.add(i);
        }
        i = end;
        continue;
      }
      if (Character.isDigit(c)
          || (c == '.' && i + 1 < n && Character.isDigit(text.charAt(i + 1)))) {
        int end = i;
        while (end < n
            && (Character.isLetterOrDigit(text.charAt(end))
                || text.charAt(end) == '.'
                || ((text.charAt(end) == '+' || text.charAt(end) == '-')
                    && (text.charAt(end - 1) == 'e' || text.charAt(end - 1) == 'E')))) {
          end++;
        }
        String token = text.substring(i, end);
        if (isNumber(token) && !atTime(text, i)) {
          out.add(i);
        }
        i = end;
        continue;
      }
      i++;
    }
    return out;
  }

  private static boolean isNumber(String token) {
    if (token.startsWith("0x") || token.startsWith("0X")) {
      return token.length() > 2;
    }
    try {
      Double.parseDouble(token);
      return !token.endsWith("d") && !token.endsWith("f") && !token.endsWith("D");
    } catch (NumberFormatException e) {
      return false; // a duration such as 5m
    }
  }

  /** Whether the token at {@code i} follows {@code @} (a time, not a literal). */
  private static boolean atTime(String text, int i) {
    int j = i - 1;
    while (j >= 0 && Character.isWhitespace(text.charAt(j))) {
      j--;
    }
    return j >= 0 && text.charAt(j) == '@';
  }

  private static int skipQuoted(String text, int start) {
    char q = text.charAt(start);
    int i = start + 1;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '\\' && q != '`') {
        i += 2;
        continue;
      }
      if (c == q) {
        return i + 1;
      }
      i++;
    }
    return text.length();
  }

  private static boolean nameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == ':';
  }
}
