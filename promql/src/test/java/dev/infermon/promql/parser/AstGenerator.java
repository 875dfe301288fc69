package dev.infermon.promql.parser;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Generates random, type-correct trees of the shapes the parser produces: parentheses wherever
 * precedence needs them, signs folded into number literals, matchers in canonical order, the
 * implied name matcher last, set operators many-to-many. Such trees must survive print → parse
 * unchanged.
 */
final class AstGenerator {
  private static final String[] NAMES = {
    "foo", "http_requests_total", "vllm:num_requests_running", "sum", "min", "offset", "by", "start"
  };
  private static final String[] LABELS = {
    "job", "instance", "le", "model_name", "label.x", "a b", "ü"
  };
  private static final String[] GROUPING = {
    "job", "le", "pod", "by", "on", "bool", "sum", "without", "nan", "label.x", "a b"
  };
  private static final String[] VALUES = {
    "", "api", "a\"b", "line\nbreak", "tab\t", "ü☺", "\\", "x"
  };
  private static final String[] REGEXES = {".*", ".+", "a|b", "api", "x.*y", "[0-9]+"};
  private static final double[] NUMBERS = {
    0, 1, 2.5, 100, 1e-3, 123456789, 1e21, Double.NaN, Double.POSITIVE_INFINITY, 0.1, 7
  };

  private final Random rnd;

  AstGenerator(long seed) {
    this.rnd = new Random(seed);
  }

  Expr expr(int depth) {
    return rnd.nextInt(4) == 0 ? scalar(depth) : vector(depth);
  }

  Expr vector(int depth) {
    int choice = depth <= 0 ? 0 : rnd.nextInt(8);
    switch (choice) {
      case 0:
      case 1:
        return selector();
      case 2:
        return call(depth, ValueType.VECTOR);
      case 3:
        return aggregate(depth);
      case 4:
        return binary(depth, true);
      case 5:
        return unary(depth, ValueType.VECTOR);
      case 6:
        return new ParenExpr(vector(depth - 1));
      default:
        return call(depth, ValueType.VECTOR);
    }
  }

  Expr scalar(int depth) {
    int choice = depth <= 0 ? 0 : rnd.nextInt(6);
    switch (choice) {
      case 0:
      case 1:
        return number();
      case 2:
        return call(depth, ValueType.SCALAR);
      case 3:
        return binary(depth, false);
      case 4:
        return unary(depth, ValueType.SCALAR);
      default:
        return new ParenExpr(scalar(depth - 1));
    }
  }

  private NumberLiteral number() {
    double v = NUMBERS[rnd.nextInt(NUMBERS.length)];
    return new NumberLiteral(rnd.nextInt(4) == 0 ? -v : v);
  }

  private Expr matrix(int depth) {
    if (depth <= 0 || rnd.nextBoolean()) {
      return new MatrixSelector(selector(), duration());
    }
    Expr inner = vector(depth - 1);
    if (inner instanceof BinaryExpr || inner instanceof UnaryExpr) {
      inner = new ParenExpr(inner);
    }
    long step = rnd.nextBoolean() ? 0 : duration();
    return new SubqueryExpr(inner, duration(), step, offset(), at());
  }

  VectorSelector selector() {
    String name = rnd.nextInt(4) == 0 ? null : NAMES[rnd.nextInt(NAMES.length)];
    List<Matcher> ms = new ArrayList<>();
    int n = rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      ms.add(matcher());
    }
    if (name == null) {
      // A selector without a name needs a matcher that does not match the empty string.
      ms.add(
          rnd.nextBoolean()
              ? Matcher.metricName(NAMES[rnd.nextInt(NAMES.length)])
              : Matcher.equal(LABELS[rnd.nextInt(LABELS.length)], "v"));
    }
    ms.sort(Comparator.comparing(Printer::matcher));
    if (name != null) {
      ms.add(Matcher.metricName(name));
    }
    return new VectorSelector(name, ms, offset(), at());
  }

  private Matcher matcher() {
    String label = LABELS[rnd.nextInt(LABELS.length)];
    MatchType type = MatchType.values()[rnd.nextInt(4)];
    boolean regex = type == MatchType.REGEX || type == MatchType.NOT_REGEX;
    String value =
        regex ? REGEXES[rnd.nextInt(REGEXES.length)] : VALUES[rnd.nextInt(VALUES.length)];
    if (label.equals(Labels.METRIC_NAME)) {
      label = "job";
    }
    return Matcher.of(type, label, value);
  }

  private long duration() {
    long[] units = {1, 1000, 60_000, 3_600_000, 86_400_000};
    return 1 + (long) rnd.nextInt(1000) * units[rnd.nextInt(units.length)];
  }

  private long offset() {
    if (rnd.nextInt(3) != 0) {
      return 0;
    }
    long d = duration();
    return rnd.nextBoolean() ? d : -d;
  }

  private AtModifier at() {
    switch (rnd.nextInt(6)) {
      case 0:
        return AtModifier.at(rnd.nextLong() % 10_000_000_000_000L);
      case 1:
        return AtModifier.START;
      case 2:
        return AtModifier.END;
      default:
        return null;
    }
  }

  private Expr call(int depth, ValueType returns) {
    List<Function> candidates = new ArrayList<>();
    for (Function f : Functions.all()) {
      if (f.returnType() == returns && !f.name().equals("info")) {
        candidates.add(f);
      }
    }
    Function f = candidates.get(rnd.nextInt(candidates.size()));
    List<Expr> args = new ArrayList<>();
    List<ValueType> types = f.argTypes();
    int count = types.size();
    if (f.variadic() > 0) {
      count = types.size() - 1 + rnd.nextInt(f.variadic() + 1);
    } else if (f.variadic() < 0) {
      count = types.size() - 1 + rnd.nextInt(3);
    }
    for (int i = 0; i < count; i++) {
      ValueType t = types.get(Math.min(i, types.size() - 1));
      args.add(argument(depth - 1, t));
    }
    return new Call(f, args);
  }

  private Expr argument(int depth, ValueType t) {
    switch (t) {
      case SCALAR:
        return scalar(depth);
      case MATRIX:
        return matrix(depth);
      case STRING:
        return new StringLiteral(VALUES[rnd.nextInt(VALUES.length)]);
      default:
        return vector(depth);
    }
  }

  private Expr aggregate(int depth) {
    AggregateOp op = AggregateOp.values()[rnd.nextInt(AggregateOp.values().length)];
    Expr param = null;
    if (op == AggregateOp.COUNT_VALUES) {
      param = new StringLiteral(VALUES[rnd.nextInt(VALUES.length)]);
    } else if (op.hasParam()) {
      param = scalar(depth - 1);
    }
    List<String> grouping = new ArrayList<>();
    int n = rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      grouping.add(GROUPING[rnd.nextInt(GROUPING.length)]);
    }
    return new AggregateExpr(op, vector(depth - 1), param, grouping, rnd.nextBoolean());
  }

  private Expr unary(int depth, ValueType type) {
    Expr operand = type == ValueType.VECTOR ? vector(depth - 1) : scalar(depth - 1);
    if (operand instanceof NumberLiteral) {
      // The parser folds a sign into a literal, so a unary minus never holds a bare number.
      operand = new ParenExpr(operand);
    }
    if (operand instanceof BinaryExpr && ((BinaryExpr) operand).op() != BinaryOp.POW) {
      operand = new ParenExpr(operand);
    }
    return new UnaryExpr(rnd.nextBoolean() ? BinaryOp.SUB : BinaryOp.ADD, operand);
  }

  private Expr binary(int depth, boolean vectorResult) {
    BinaryOp[] ops = BinaryOp.values();
    BinaryOp op = ops[rnd.nextInt(ops.length)];
    if (!vectorResult && op.isSetOperator()) {
      op = BinaryOp.ADD;
    }
    Expr lhs;
    Expr rhs;
    if (!vectorResult) {
      lhs = scalar(depth - 1);
      rhs = scalar(depth - 1);
    } else if (op.isSetOperator() || rnd.nextBoolean()) {
      lhs = vector(depth - 1);
      rhs = vector(depth - 1);
    } else if (rnd.nextBoolean()) {
      lhs = vector(depth - 1);
      rhs = scalar(depth - 1);
    } else {
      lhs = scalar(depth - 1);
      rhs = vector(depth - 1);
    }
    lhs = leftOperand(op, lhs);
    rhs = rightOperand(op, rhs);
    boolean bothVectors = lhs.type() == ValueType.VECTOR && rhs.type() == ValueType.VECTOR;
    boolean returnBool = op.isComparison() && (!bothVectors && !vectorResult || rnd.nextBoolean());
    VectorMatching matching = bothVectors ? matching(op) : null;
    return new BinaryExpr(op, lhs, rhs, matching, returnBool);
  }

  private VectorMatching matching(BinaryOp op) {
    if (rnd.nextBoolean()) {
      return VectorMatching.defaultFor(op);
    }
    boolean on = rnd.nextBoolean();
    List<String> labels = new ArrayList<>();
    for (int i = rnd.nextInt(3); i > 0; i--) {
      labels.add(GROUPING[rnd.nextInt(GROUPING.length)]);
    }
    if (op.isSetOperator()) {
      return new VectorMatching(VectorMatching.Cardinality.MANY_TO_MANY, labels, on, List.of());
    }
    VectorMatching.Cardinality card = VectorMatching.Cardinality.values()[rnd.nextInt(3)];
    List<String> include = new ArrayList<>();
    if (card != VectorMatching.Cardinality.ONE_TO_ONE) {
      for (int i = rnd.nextInt(3); i > 0; i--) {
        String l = "inc_" + rnd.nextInt(5);
        include.add(l);
      }
    } else if (labels.isEmpty() && !on) {
      return VectorMatching.defaultFor(op);
    }
    return new VectorMatching(card, labels, on, include);
  }

  private static Expr leftOperand(BinaryOp op, Expr e) {
    if (e instanceof BinaryExpr) {
      int p = ((BinaryExpr) e).op().precedence();
      if (p < op.precedence() || (p == op.precedence() && op.rightAssociative())) {
        return new ParenExpr(e);
      }
    }
    if (op == BinaryOp.POW && (e instanceof UnaryExpr || isNegative(e))) {
      return new ParenExpr(e);
    }
    return e;
  }

  private static Expr rightOperand(BinaryOp op, Expr e) {
    if (e instanceof BinaryExpr) {
      int p = ((BinaryExpr) e).op().precedence();
      if (p < op.precedence() || (p == op.precedence() && !op.rightAssociative())) {
        return new ParenExpr(e);
      }
    }
    return e;
  }

  private static boolean isNegative(Expr e) {
    return e instanceof NumberLiteral
        && Double.doubleToRawLongBits(((NumberLiteral) e).value()) < 0;
  }
}
