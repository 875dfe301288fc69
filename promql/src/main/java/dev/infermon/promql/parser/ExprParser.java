package dev.infermon.promql.parser;

import java.util.ArrayList;
import java.util.List;

/**
 * Expressions by precedence climbing, following the precedences of Prometheus's {@code
 * generated_parser.y}: {@code or} &lt; {@code and unless} &lt; comparisons &lt; {@code + -} &lt;
 * {@code * / % atan2} &lt; unary {@code + -} &lt; {@code ^} (right-associative) &lt; the postfix
 * {@code [range]}, {@code offset} and {@code @}, which bind to the operand just before them.
 */
final class ExprParser {
  private ExprParser() {}

  /** What may follow a binary operator: {@code bool}, {@code on/ignoring}, {@code group_x}. */
  private record Modifiers(boolean returnBool, VectorMatching matching) {}

  /** An expression whose binary operators all bind at least as tightly as {@code minPrecedence}. */
  static Expr expression(TokenStream ts, int minPrecedence) {
    // Every nesting (parentheses, arguments, right operands, unary operands) passes through here;
    // a left-associative chain "a + b + c" stays in this loop, one level whatever its length.
    ts.enter();
    try {
      Expr lhs = unary(ts);
      while (true) {
        Token t = ts.peek();
        BinaryOp op = t.kind().binaryOp();
        if (op == null || op.precedence() < minPrecedence) {
          return lhs;
        }
        ts.next();
        Modifiers mods = binaryModifiers(ts);
        Expr rhs = expression(ts, op.rightAssociative() ? op.precedence() : op.precedence() + 1);
        lhs = binary(ts, op, lhs, rhs, mods, t);
      }
    } finally {
      ts.leave();
    }
  }

  private static Modifiers binaryModifiers(TokenStream ts) {
    boolean returnBool = false;
    if (ts.at(TokenKind.BOOL)) {
      ts.next();
      returnBool = true;
    }
    VectorMatching.Cardinality card = VectorMatching.Cardinality.ONE_TO_ONE;
    List<String> labels = List.of();
    List<String> include = List.of();
    boolean on = false;
    if (ts.at(TokenKind.ON) || ts.at(TokenKind.IGNORING)) {
      on = ts.next().kind() == TokenKind.ON;
      labels = SelectorParser.groupingLabels(ts);
      if (ts.at(TokenKind.GROUP_LEFT) || ts.at(TokenKind.GROUP_RIGHT)) {
        card =
            ts.next().kind() == TokenKind.GROUP_LEFT
                ? VectorMatching.Cardinality.MANY_TO_ONE
                : VectorMatching.Cardinality.ONE_TO_MANY;
        if (ts.at(TokenKind.LEFT_PAREN)) {
          include = SelectorParser.groupingLabels(ts);
        }
      }
    }
    TokenKind k = ts.peek().kind();
    if (k == TokenKind.FILL || k == TokenKind.FILL_LEFT || k == TokenKind.FILL_RIGHT) {
      Token t = ts.peek();
      throw ts.fail(t.pos(), t.end(), "binop fill modifiers are experimental and not enabled");
    }
    return new Modifiers(returnBool, new VectorMatching(card, labels, on, include));
  }

  private static Expr binary(
      TokenStream ts, BinaryOp op, Expr lhs, Expr rhs, Modifiers mods, Token opToken) {
    VectorMatching asWritten = mods.matching();
    VectorMatching matching = null;
    if (ts.positions.type(lhs) == ValueType.VECTOR && ts.positions.type(rhs) == ValueType.VECTOR) {
      matching = asWritten;
      if (op.isSetOperator() && asWritten.card() == VectorMatching.Cardinality.ONE_TO_ONE) {
        matching =
            new VectorMatching(
                VectorMatching.Cardinality.MANY_TO_MANY,
                asWritten.matchingLabels(),
                asWritten.on(),
                asWritten.include());
      }
    }
    BinaryExpr b = new BinaryExpr(op, lhs, rhs, matching, mods.returnBool());
    ts.positions.putBinary(b, opToken.pos(), asWritten);
    return ts.positions.put(b, ts.positions.start(lhs), ts.positions.end(rhs));
  }

  /**
   * A unary {@code +}/{@code -} binds looser than {@code ^} and the postfix modifiers but tighter
   * than {@code *}: {@code -a^b} is {@code -(a^b)}, {@code -a*b} is {@code (-a)*b}. A sign before a
   * number literal is folded into it.
   */
  private static Expr unary(TokenStream ts) {
    Token t = ts.peek();
    if (t.kind() != TokenKind.ADD && t.kind() != TokenKind.SUB) {
      return ModifierParser.postfix(ts, primary(ts));
    }
    ts.next();
    Expr operand = expression(ts, BinaryOp.POW.precedence());
    int end = ts.positions.end(operand);
    if (operand instanceof NumberLiteral) {
      double v = ((NumberLiteral) operand).value();
      return ts.positions.put(
          new NumberLiteral(t.kind() == TokenKind.SUB ? v * -1 : v), t.pos(), end);
    }
    BinaryOp op = t.kind() == TokenKind.SUB ? BinaryOp.SUB : BinaryOp.ADD;
    return ts.positions.put(new UnaryExpr(op, operand), t.pos(), end);
  }

  private static Expr primary(TokenStream ts) {
    Token t = ts.peek();
    switch (t.kind()) {
      case NUMBER:
        ts.next();
        return ts.positions.put(new NumberLiteral(ModifierParser.number(ts, t)), t.pos(), t.end());
      case DURATION:
        ts.next();
        return ts.positions.put(
            new NumberLiteral(ModifierParser.durationNanos(ts, t) / 1e9), t.pos(), t.end());
      case STRING:
        ts.next();
        return ts.positions.put(new StringLiteral(SelectorParser.unquote(ts, t)), t.pos(), t.end());
      case LEFT_PAREN:
        {
          ts.next();
          Expr inner = expression(ts, 0);
          Token close = ts.peek();
          if (close.kind() != TokenKind.RIGHT_PAREN) {
            throw ts.unexpected(close);
          }
          ts.next();
          return ts.positions.put(new ParenExpr(inner), t.pos(), close.end());
        }
      case LEFT_BRACE:
        return SelectorParser.vectorSelector(ts);
      case IDENTIFIER:
      case START:
      case END:
      case STEP:
      case RANGE:
        // start(), end(), step() and range() are (experimental) functions; alone, metric names.
        if (ts.peek2().kind() == TokenKind.LEFT_PAREN) {
          return call(ts);
        }
        return SelectorParser.vectorSelector(ts);
      default:
        break;
    }
    if (t.kind().aggregateOp() != null) {
      TokenKind after = ts.peek2().kind();
      if (after == TokenKind.LEFT_PAREN || after == TokenKind.BY || after == TokenKind.WITHOUT) {
        return aggregate(ts);
      }
    }
    if (t.kind().isMetricIdentifier()) {
      return SelectorParser.vectorSelector(ts);
    }
    throw ts.unexpected(t);
  }

  private static Expr call(TokenStream ts) {
    Token name = ts.next();
    Function f = Functions.get(name.text());
    if (f == null) {
      ts.error(name.pos(), name.end(), "unknown function with name " + GoText.quote(name.text()));
    } else if (f.experimental() && !ts.options.experimentalFunctions()) {
      ts.error(name.pos(), name.end(), "function " + GoText.quote(name.text()) + " is not enabled");
    }
    List<Expr> args = arguments(ts);
    int end = ts.last().end();
    if (f == null) {
      return ts.positions.put(new NumberLiteral(0), name.pos(), end);
    }
    return ts.positions.put(new Call(f, args), name.pos(), end);
  }

  /** {@code ( expr, expr, ... )}; Prometheus rejects a trailing comma here. */
  private static List<Expr> arguments(TokenStream ts) {
    Token open = ts.peek();
    if (open.kind() != TokenKind.LEFT_PAREN) {
      throw ts.unexpected(open);
    }
    ts.next();
    List<Expr> args = new ArrayList<>();
    if (ts.at(TokenKind.RIGHT_PAREN)) {
      ts.next();
      return args;
    }
    while (true) {
      args.add(expression(ts, 0));
      Token t = ts.peek();
      if (t.kind() == TokenKind.COMMA) {
        ts.next();
        if (ts.at(TokenKind.RIGHT_PAREN)) {
          ts.error(t.pos(), t.end(), "trailing commas not allowed in function call args");
          ts.next();
          return args;
        }
      } else if (t.kind() == TokenKind.RIGHT_PAREN) {
        ts.next();
        return args;
      } else {
        throw ts.unexpected(t);
      }
    }
  }

  /** {@code op [by|without (labels)] (args) [by|without (labels)]}. */
  private static Expr aggregate(TokenStream ts) {
    Token opToken = ts.next();
    AggregateOp op = opToken.kind().aggregateOp();
    ts.aggregationDepth++;
    List<String> grouping = List.of();
    boolean without = false;
    boolean grouped = false;
    if (ts.at(TokenKind.BY) || ts.at(TokenKind.WITHOUT)) {
      without = ts.next().kind() == TokenKind.WITHOUT;
      grouping = SelectorParser.groupingLabels(ts);
      grouped = true;
    }
    List<Expr> args = arguments(ts);
    ts.aggregationDepth--;
    if (!grouped && (ts.at(TokenKind.BY) || ts.at(TokenKind.WITHOUT))) {
      without = ts.next().kind() == TokenKind.WITHOUT;
      grouping = SelectorParser.groupingLabels(ts);
    }
    int start = opToken.pos();
    int end = ts.last().end();
    if (args.isEmpty()) {
      ts.error(start, end, "no arguments for aggregate expression provided");
      return ts.positions.put(new NumberLiteral(0), start, end);
    }
    int wanted = 1;
    Expr param = null;
    if (op.hasParam()) {
      if ((op == AggregateOp.LIMITK || op == AggregateOp.LIMIT_RATIO)
          && !ts.options.experimentalFunctions()) {
        ts.error(
            start,
            end,
            op.keyword()
                + "() is experimental and must be enabled with"
                + " --enable-feature=promql-experimental-functions");
        return ts.positions.put(new NumberLiteral(0), start, end);
      }
      wanted = 2;
      param = args.get(0);
    }
    if (args.size() != wanted) {
      ts.error(
          start,
          end,
          "wrong number of arguments for aggregate expression provided, expected "
              + wanted
              + ", got "
              + args.size());
      return ts.positions.put(new NumberLiteral(0), start, end);
    }
    return ts.positions.put(
        new AggregateExpr(op, args.get(wanted - 1), param, grouping, without), start, end);
  }
}
