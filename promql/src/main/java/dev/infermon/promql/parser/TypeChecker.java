package dev.infermon.promql.parser;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Type checking after a successful parse, as Prometheus's {@code checkAST} does it: same checks,
 * same order (children before the node's own checks), same messages. The first error found is the
 * one reported.
 */
final class TypeChecker {
  private final TokenStream ts;
  private final Positions pos;
  // Selectors exempt from the non-empty matcher rule: info()'s label-only second argument.
  private final Map<Expr, Boolean> labelsOnly = new IdentityHashMap<>();

  private TypeChecker(TokenStream ts) {
    this.ts = ts;
    this.pos = ts.positions;
  }

  /** Checks the tree, recording errors in the token stream. */
  static void check(TokenStream ts, Expr root) {
    new TypeChecker(ts).check(root);
  }

  private ValueType check(Expr node) {
    if (node instanceof AggregateExpr) {
      aggregate((AggregateExpr) node);
    } else if (node instanceof BinaryExpr) {
      binaryChain((BinaryExpr) node);
    } else if (node instanceof Call) {
      call((Call) node);
    } else if (node instanceof ParenExpr) {
      check(((ParenExpr) node).expr());
    } else if (node instanceof StepInvariantExpr) {
      check(((StepInvariantExpr) node).expr());
    } else if (node instanceof UnaryExpr) {
      ValueType t = check(((UnaryExpr) node).expr());
      if (t != ValueType.SCALAR && t != ValueType.VECTOR) {
        ts.error(
            node,
            "unary expression only allowed on expressions of type scalar or instant vector, got "
                + GoText.quote(t.documentedName()));
      }
    } else if (node instanceof SubqueryExpr) {
      ValueType t = check(((SubqueryExpr) node).expr());
      if (t != ValueType.VECTOR) {
        ts.error(
            node, "subquery is only allowed on instant vector, got " + t.apiName() + " instead");
      }
    } else if (node instanceof MatrixSelector) {
      check(((MatrixSelector) node).selector());
    } else if (node instanceof VectorSelector) {
      selector((VectorSelector) node);
    }
    return pos.type(node);
  }

  private void expectType(Expr node, ValueType want, String context) {
    ValueType t = check(node);
    if (t != want) {
      ts.error(
          node,
          "expected type "
              + want.documentedName()
              + " in "
              + context
              + ", got "
              + t.documentedName());
    }
  }

  private void aggregate(AggregateExpr n) {
    expectType(n.expr(), ValueType.VECTOR, "aggregation expression");
    switch (n.op()) {
      case TOPK:
      case BOTTOMK:
      case QUANTILE:
      case LIMITK:
      case LIMIT_RATIO:
        expectType(n.param(), ValueType.SCALAR, "aggregation parameter");
        break;
      case COUNT_VALUES:
        expectType(n.param(), ValueType.STRING, "aggregation parameter");
        break;
      default:
        break;
    }
  }

  /**
   * Checks a chain of binary operators down its left side without recursing, so that a long {@code
   * a - b - c - ...} cannot overflow the stack; the order of checks is Prometheus's.
   */
  private void binaryChain(BinaryExpr top) {
    Deque<BinaryExpr> spine = new ArrayDeque<>();
    Expr e = top;
    while (e instanceof BinaryExpr) {
      spine.push((BinaryExpr) e);
      e = ((BinaryExpr) e).lhs();
    }
    check(e);
    while (!spine.isEmpty()) {
      binary(spine.pop());
    }
  }

  /** The checks of one binary expression whose left operand is already checked. */
  private void binary(BinaryExpr n) {
    ValueType lt = pos.type(n.lhs());
    ValueType rt = check(n.rhs());
    VectorMatching m = pos.matching(n);
    int op = pos.operator(n);
    int opEnd = pos.start(n.rhs());
    BinaryOp o = n.op();
    if (n.returnBool() && !o.isComparison()) {
      ts.error(op, opEnd, "bool modifier can only be used on comparison operators");
    }
    if (o.isComparison() && !n.returnBool() && rt == ValueType.SCALAR && lt == ValueType.SCALAR) {
      ts.error(op, opEnd, "comparisons between scalars must use BOOL modifier");
    }
    VectorMatching.Cardinality card = m.card();
    if (o.isSetOperator() && card == VectorMatching.Cardinality.ONE_TO_ONE) {
      card = VectorMatching.Cardinality.MANY_TO_MANY;
    }
    if (m.on()) {
      for (String l1 : m.matchingLabels()) {
        for (String l2 : m.include()) {
          if (l1.equals(l2)) {
            ts.error(
                op,
                opEnd,
                "label " + GoText.quote(l1) + " must not occur in ON and GROUP clause at once");
          }
        }
      }
    }
    if (lt != ValueType.SCALAR && lt != ValueType.VECTOR) {
      ts.error(n.lhs(), "binary expression must contain only scalar and instant vector types");
    }
    if (rt != ValueType.SCALAR && rt != ValueType.VECTOR) {
      ts.error(n.rhs(), "binary expression must contain only scalar and instant vector types");
    }
    String quotedOp = GoText.quote(o.symbol());
    if (lt != ValueType.VECTOR || rt != ValueType.VECTOR) {
      if (!m.matchingLabels().isEmpty()) {
        ts.error(n, "vector matching only allowed between instant vectors");
      }
    } else if (o.isSetOperator()) {
      if (card == VectorMatching.Cardinality.ONE_TO_MANY
          || card == VectorMatching.Cardinality.MANY_TO_ONE) {
        ts.error(n, "no grouping allowed for " + quotedOp + " operation");
      }
      if (card != VectorMatching.Cardinality.MANY_TO_MANY) {
        ts.error(n, "set operations must always be many-to-many");
      }
    }
    if ((lt == ValueType.SCALAR || rt == ValueType.SCALAR) && o.isSetOperator()) {
      ts.error(n, "set operator " + quotedOp + " not allowed in binary scalar expression");
    }
  }

  private void call(Call n) {
    Function f = n.function();
    List<Expr> args = n.args();
    int declared = f.argTypes().size();
    String name = GoText.quote(f.name());
    if (f.variadic() == 0) {
      if (declared != args.size()) {
        ts.error(
            n, "expected " + declared + " argument(s) in call to " + name + ", got " + args.size());
      }
    } else {
      int required = declared - 1;
      if (required > args.size()) {
        ts.error(
            n,
            "expected at least "
                + required
                + " argument(s) in call to "
                + name
                + ", got "
                + args.size());
      } else if (f.variadic() > 0 && required + f.variadic() < args.size()) {
        ts.error(
            n,
            "expected at most "
                + (required + f.variadic())
                + " argument(s) in call to "
                + name
                + ", got "
                + args.size());
      }
    }
    if (f.name().equals("info") && args.size() > 1) {
      infoSelector(n, args.get(1));
    }
    for (int i = 0; i < args.size(); i++) {
      int k = i;
      if (k >= declared) {
        if (f.variadic() == 0) {
          break;
        }
        k = declared - 1;
      }
      ValueType want = f.argTypes().get(k);
      ValueType t = check(args.get(i));
      if (t != want) {
        ts.error(
            args.get(i),
            "expected type "
                + want.documentedName()
                + " in call to function "
                + name
                + ", got "
                + t.documentedName());
      }
    }
  }

  /** {@code info()}'s second argument selects info metrics by labels only. */
  private void infoSelector(Call n, Expr arg) {
    if (pos.type(arg) != ValueType.VECTOR) {
      ts.error(
          n,
          "expected type instant vector in call to function \"info\", got "
              + pos.type(arg).documentedName());
    }
    if (arg instanceof VectorSelector && ((VectorSelector) arg).name() != null) {
      ts.error(arg, "expected label selectors only, got vector selector instead");
    } else if (arg instanceof VectorSelector) {
      labelsOnly.put(arg, Boolean.TRUE);
    } else {
      ts.error(arg, "expected label selectors only");
    }
  }

  private void selector(VectorSelector n) {
    List<Matcher> ms = n.matchers();
    if (n.name() != null) {
      // The last matcher is the one the name implies; any other __name__ matcher names it twice.
      for (Matcher m : ms.subList(0, Math.max(0, ms.size() - 1))) {
        if (m.name().equals(Labels.METRIC_NAME)) {
          ts.error(
              n,
              "metric name must not be set twice: "
                  + GoText.quote(n.name())
                  + " or "
                  + GoText.quote(m.value()));
        }
      }
      return;
    }
    if (labelsOnly.containsKey(n)) {
      return;
    }
    for (Matcher m : ms) {
      if (!m.matchesEmpty()) {
        return;
      }
    }
    ts.error(n, "vector selector must contain at least one non-empty matcher");
  }
}
