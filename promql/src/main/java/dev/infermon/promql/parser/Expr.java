package dev.infermon.promql.parser;

/** A PromQL expression. Immutable; equality is structural. */
public sealed interface Expr
    permits AggregateExpr,
        BinaryExpr,
        Call,
        MatrixSelector,
        NumberLiteral,
        ParenExpr,
        StepInvariantExpr,
        StringLiteral,
        SubqueryExpr,
        UnaryExpr,
        VectorSelector {
  /** The type of value this expression evaluates to. */
  ValueType type();
}
