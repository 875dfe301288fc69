package dev.infermon.promql.parser;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.text.GoFloat;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Turns an AST back into PromQL, in the canonical form of Prometheus's {@code Expr.String()}:
 * {@code sum by (job) (rate(x[5m]))}, matchers sorted, durations as {@code 1h30m}, strings and
 * non-legacy label names quoted Go-style, {@code @} as seconds with three decimals. Parentheses
 * appear where the tree has a {@link ParenExpr}; for trees the parser cannot produce (say, a built
 * {@code (a + b) * c} without one) they are added where precedence requires, so the output always
 * means the tree.
 *
 * <p>Stateless and thread-safe.
 */
public final class Printer {
  private Printer() {}

  /** The canonical PromQL text of {@code expr}. */
  public static String print(Expr expr) {
    return Nesting.call(
        Nesting.depth(expr),
        () -> {
          StringBuilder sb = new StringBuilder();
          write(sb, expr);
          return sb.toString();
        });
  }

  private static void write(StringBuilder sb, Expr e) {
    if (e instanceof AggregateExpr) {
      aggregate(sb, (AggregateExpr) e);
    } else if (e instanceof BinaryExpr) {
      binary(sb, (BinaryExpr) e);
    } else if (e instanceof Call) {
      Call c = (Call) e;
      sb.append(c.function().name()).append('(');
      list(sb, c.args());
      sb.append(')');
    } else if (e instanceof MatrixSelector) {
      MatrixSelector m = (MatrixSelector) e;
      selectorBody(sb, m.selector());
      sb.append('[').append(Durations.format(m.rangeMs())).append(']');
      atAndOffset(sb, m.selector().at(), m.selector().offsetMs());
    } else if (e instanceof NumberLiteral) {
      sb.append(number(((NumberLiteral) e).value()));
    } else if (e instanceof ParenExpr) {
      sb.append('(');
      write(sb, ((ParenExpr) e).expr());
      sb.append(')');
    } else if (e instanceof StepInvariantExpr) {
      write(sb, ((StepInvariantExpr) e).expr());
    } else if (e instanceof StringLiteral) {
      sb.append(GoText.quote(((StringLiteral) e).value()));
    } else if (e instanceof SubqueryExpr) {
      subquery(sb, (SubqueryExpr) e);
    } else if (e instanceof UnaryExpr) {
      UnaryExpr u = (UnaryExpr) e;
      sb.append(u.op().symbol());
      if (isPlusInf(u.expr())) {
        sb.append("Inf"); // "-+Inf" is two operators
      } else {
        operand(sb, u.expr(), needsParensUnderUnary(u.expr()));
      }
    } else if (e instanceof VectorSelector) {
      VectorSelector vs = (VectorSelector) e;
      selectorBody(sb, vs);
      atAndOffset(sb, vs.at(), vs.offsetMs());
    } else {
      throw new IllegalArgumentException("unknown expression type: " + e.getClass().getName());
    }
  }

  private static void aggregate(StringBuilder sb, AggregateExpr a) {
    sb.append(a.op().keyword());
    if (a.without()) {
      sb.append(" without (");
      labels(sb, a.grouping());
      sb.append(") ");
    } else if (!a.grouping().isEmpty()) {
      sb.append(" by (");
      labels(sb, a.grouping());
      sb.append(") ");
    }
    sb.append('(');
    if (a.op().hasParam()) {
      write(sb, a.param());
      sb.append(", ");
    }
    write(sb, a.expr());
    sb.append(')');
  }

  /** A chain {@code a + b + c + ...} is printed down its left side with a loop. */
  private static void binary(StringBuilder sb, BinaryExpr top) {
    ArrayDeque<BinaryExpr> spine = new ArrayDeque<>();
    BinaryExpr b = top;
    spine.push(b);
    while (b.lhs() instanceof BinaryExpr && !needsParensLeft(b.op(), b.lhs())) {
      b = (BinaryExpr) b.lhs();
      spine.push(b);
    }
    if (b.op() == BinaryOp.POW && isPlusInf(b.lhs())) {
      sb.append("Inf"); // "+Inf ^ x" reads as "+(Inf ^ x)"
    } else {
      operand(sb, b.lhs(), needsParensLeft(b.op(), b.lhs()));
    }
    while (!spine.isEmpty()) {
      operatorAndRight(sb, spine.pop());
    }
  }

  private static void operatorAndRight(StringBuilder sb, BinaryExpr b) {
    BinaryOp op = b.op();
    sb.append(' ').append(op.symbol());
    if (b.returnBool()) {
      sb.append(" bool");
    }
    VectorMatching m = b.matching();
    if (m != null) {
      boolean grouped =
          m.card() == VectorMatching.Cardinality.MANY_TO_ONE
              || m.card() == VectorMatching.Cardinality.ONE_TO_MANY;
      if (!m.matchingLabels().isEmpty() || m.on() || grouped) {
        sb.append(m.on() ? " on (" : " ignoring (");
        labels(sb, m.matchingLabels());
        sb.append(')');
      }
      if (grouped) {
        sb.append(
            m.card() == VectorMatching.Cardinality.MANY_TO_ONE
                ? " group_left ("
                : " group_right (");
        labels(sb, m.include());
        sb.append(')');
      }
    }
    sb.append(' ');
    operand(sb, b.rhs(), needsParensRight(op, b.rhs()));
  }

  private static void subquery(StringBuilder sb, SubqueryExpr s) {
    Expr inner = s.expr();
    operand(
        sb, inner, inner instanceof BinaryExpr || inner instanceof UnaryExpr || negative(inner));
    sb.append('[').append(Durations.format(s.rangeMs())).append(':');
    if (s.stepMs() != 0) {
      sb.append(Durations.format(s.stepMs()));
    }
    sb.append(']');
    atAndOffset(sb, s.at(), s.offsetMs());
  }

  private static void operand(StringBuilder sb, Expr e, boolean parens) {
    if (parens) {
      sb.append('(');
      write(sb, e);
      sb.append(')');
    } else {
      write(sb, e);
    }
  }

  private static boolean needsParensLeft(BinaryOp op, Expr lhs) {
    if (lhs instanceof BinaryExpr) {
      int p = ((BinaryExpr) lhs).op().precedence();
      return p < op.precedence() || (p == op.precedence() && op.rightAssociative());
    }
    // "-a ^ b" reads as "-(a ^ b)".
    return op == BinaryOp.POW && (lhs instanceof UnaryExpr || negative(lhs));
  }

  private static boolean needsParensRight(BinaryOp op, Expr rhs) {
    if (rhs instanceof BinaryExpr) {
      int p = ((BinaryExpr) rhs).op().precedence();
      return p < op.precedence() || (p == op.precedence() && !op.rightAssociative());
    }
    return false;
  }

  private static boolean needsParensUnderUnary(Expr operand) {
    return (operand instanceof BinaryExpr && ((BinaryExpr) operand).op() != BinaryOp.POW)
        || negative(operand);
  }

  private static boolean isPlusInf(Expr e) {
    return e instanceof NumberLiteral && ((NumberLiteral) e).value() == Double.POSITIVE_INFINITY;
  }

  private static boolean negative(Expr e) {
    return e instanceof NumberLiteral
        && (Double.doubleToRawLongBits(((NumberLiteral) e).value()) < 0);
  }

  private static void selectorBody(StringBuilder sb, VectorSelector vs) {
    List<String> parts = new ArrayList<>();
    for (Matcher m : vs.matchers()) {
      if (m.name().equals(Labels.METRIC_NAME)
          && m.type() == MatchType.EQUAL
          && vs.name() != null
          && m.value().equals(vs.name())
          && !m.value().isEmpty()) {
        continue;
      }
      parts.add(matcher(m));
    }
    if (vs.name() != null) {
      sb.append(vs.name());
    }
    if (!parts.isEmpty()) {
      Collections.sort(parts);
      sb.append('{').append(String.join(",", parts)).append('}');
    }
  }

  private static void atAndOffset(StringBuilder sb, AtModifier at, long offsetMs) {
    if (at != null) {
      switch (at.kind()) {
        case START:
          sb.append(" @ start()");
          break;
        case END:
          sb.append(" @ end()");
          break;
        default:
          sb.append(" @ ").append(String.format(Locale.ROOT, "%.3f", at.timestampMs() / 1000.0));
      }
    }
    if (offsetMs > 0) {
      sb.append(" offset ").append(Durations.format(offsetMs));
    } else if (offsetMs < 0) {
      sb.append(" offset -").append(Durations.format(-offsetMs));
    }
  }

  /** A matcher as Prometheus prints it: the name quoted unless a legacy label name. */
  static String matcher(Matcher m) {
    String name = isLegacyName(m.name()) ? m.name() : GoText.quote(m.name());
    return name + m.type().symbol() + GoText.quote(m.value());
  }

  private static void labels(StringBuilder sb, List<String> names) {
    for (int i = 0; i < names.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      String n = names.get(i);
      sb.append(isBareLabel(n) ? n : GoText.quote(n));
    }
  }

  private static void list(StringBuilder sb, List<Expr> exprs) {
    for (int i = 0; i < exprs.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      write(sb, exprs.get(i));
    }
  }

  /**
   * Whether a label in {@code by (...)} / {@code on (...)} can go unquoted. Prometheus quotes only
   * non-legacy names, so it prints {@code by (without)}, which its parser then rejects; keywords
   * that are no label there ({@code without}, {@code fill}, {@code inf}, {@code nan}) are quoted.
   */
  private static boolean isBareLabel(String s) {
    if (!isLegacyName(s)) {
      return false;
    }
    TokenKind k = TokenKind.keyword(s);
    return k == null || k.isMaybeLabel();
  }

  /** {@code [a-zA-Z_][a-zA-Z0-9_]*}: printable without quotes. */
  static boolean isLegacyName(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          c == '_'
              || (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (i > 0 && c >= '0' && c <= '9');
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** Go's {@code strconv.FormatFloat(v, 'f', -1, 64)}: shortest digits, never an exponent. */
  static String number(double v) {
    return GoFloat.formatF(v);
  }
}
