/**
 * The PromQL abstract syntax tree, its parser and its printer.
 *
 * <p>AST nodes are immutable records compared by value; they carry no source positions, so two
 * parses of equivalent text are equal (parse → print → parse is the identity). Positions exist only
 * in parse errors.
 *
 * <p>Entry points: {@link dev.infermon.promql.parser.PromqlParser} (queries, {@code match[]}
 * selectors, durations, numbers), {@link dev.infermon.promql.parser.Printer} (canonical text),
 * {@link dev.infermon.promql.parser.Functions} (the function table) and {@link
 * dev.infermon.promql.parser.ParseException}. The lexer and parser are ports of Prometheus's {@code
 * promql/parser} and keep its grammar, type rules and error messages.
 */
package dev.infermon.promql.parser;
