/**
 * The PromQL abstract syntax tree, its parser and its printer.
 *
 * <p>AST nodes are immutable records compared by value; they carry no source positions, so two
 * parses of equivalent text are equal (parse → print → parse is the identity). Positions exist only
 * in parse errors.
 */
package dev.infermon.promql.parser;
