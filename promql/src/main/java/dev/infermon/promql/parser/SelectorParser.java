package dev.infermon.promql.parser;

import dev.infermon.model.labels.MatchType;
import dev.infermon.model.labels.Matcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Vector selectors, label matchers and label lists ({@code by (...)}, {@code on (...)}). */
final class SelectorParser {
  private SelectorParser() {}

  /**
   * A vector selector: a metric name, braces, or both. The matchers come out in canonical order
   * (sorted as the printer prints them, the name's matcher last), so that parse → print → parse
   * gives equal trees; their order has no meaning.
   */
  static VectorSelector vectorSelector(TokenStream ts) {
    Token first = ts.peek();
    String name = null;
    int end;
    if (first.kind() != TokenKind.LEFT_BRACE) {
      ts.next();
      name = first.text();
      end = first.end();
    } else {
      end = first.end();
    }
    List<Matcher> matchers = new ArrayList<>();
    if (ts.at(TokenKind.LEFT_BRACE)) {
      end = labelMatchers(ts, matchers);
    }
    matchers.sort(Comparator.comparing(Printer::matcher));
    if (name != null) {
      matchers.add(Matcher.metricName(name));
    }
    return ts.positions.put(new VectorSelector(name, matchers, 0, null), first.pos(), end);
  }

  /** Parses {@code {...}} into {@code out}; returns the offset after the closing brace. */
  private static int labelMatchers(TokenStream ts, List<Matcher> out) {
    ts.next();
    if (ts.at(TokenKind.RIGHT_BRACE)) {
      return ts.next().end();
    }
    while (true) {
      Token t = ts.peek();
      if (t.kind() == TokenKind.IDENTIFIER) {
        ts.next();
        Token op = ts.peek();
        if (!op.kind().isMatchOp()) {
          throw ts.unexpected(op, "label matching", "label matching operator");
        }
        matcher(ts, t, t.text(), out);
      } else if (t.kind() == TokenKind.STRING) {
        ts.next();
        String label = unquote(ts, t);
        if (ts.peek().kind().isMatchOp()) {
          matcher(ts, t, label, out);
        } else {
          out.add(Matcher.metricName(label));
        }
      } else {
        throw ts.unexpected(t, "label matching", "identifier or \"}\"");
      }
      Token sep = ts.peek();
      if (sep.kind() == TokenKind.COMMA) {
        ts.next();
        if (ts.at(TokenKind.RIGHT_BRACE)) {
          return ts.next().end();
        }
      } else if (sep.kind() == TokenKind.RIGHT_BRACE) {
        return ts.next().end();
      } else {
        throw ts.unexpected(sep, "label matching", "\",\" or \"}\"");
      }
    }
  }

  private static void matcher(TokenStream ts, Token labelToken, String label, List<Matcher> out) {
    Token op = ts.next();
    Token value = ts.peek();
    if (value.kind() != TokenKind.STRING) {
      throw ts.unexpected(value, "label matching", "string");
    }
    ts.next();
    String v = unquote(ts, value);
    try {
      out.add(Matcher.of(matchType(op), label, v));
    } catch (IllegalArgumentException e) {
      ts.error(labelToken.pos(), value.end(), e.getMessage());
    }
  }

  private static MatchType matchType(Token op) {
    switch (op.kind()) {
      case EQL:
        return MatchType.EQUAL;
      case NEQ:
        return MatchType.NOT_EQUAL;
      case EQL_REGEX:
        return MatchType.REGEX;
      case NEQ_REGEX:
        return MatchType.NOT_REGEX;
      default:
        throw new AssertionError(op);
    }
  }

  /**
   * A parenthesised label list, {@code (a, "b.c",)}: identifiers, keywords that can be label names,
   * or quoted UTF-8 names; a trailing comma is allowed.
   */
  static List<String> groupingLabels(TokenStream ts) {
    Token open = ts.peek();
    if (open.kind() != TokenKind.LEFT_PAREN) {
      throw ts.unexpected(open, "grouping opts", "\"(\"");
    }
    ts.next();
    List<String> labels = new ArrayList<>();
    if (ts.at(TokenKind.RIGHT_PAREN)) {
      ts.next();
      return labels;
    }
    while (true) {
      Token t = ts.peek();
      if (t.kind().isMaybeLabel()) {
        ts.next();
        labels.add(t.text());
      } else if (t.kind() == TokenKind.STRING) {
        ts.next();
        String name = unquote(ts, t);
        if (name.isEmpty()) {
          ts.error(t.pos(), t.end(), "invalid label name for grouping: " + GoText.quote(name));
        }
        labels.add(name);
      } else {
        throw ts.unexpected(t, "grouping opts", "label");
      }
      Token sep = ts.peek();
      if (sep.kind() == TokenKind.COMMA) {
        ts.next();
        if (ts.at(TokenKind.RIGHT_PAREN)) {
          ts.next();
          return labels;
        }
      } else if (sep.kind() == TokenKind.RIGHT_PAREN) {
        ts.next();
        return labels;
      } else {
        throw ts.unexpected(sep, "grouping opts", "\",\" or \")\"");
      }
    }
  }

  /** Unquotes a string token, recording Prometheus's error if it is malformed. */
  static String unquote(TokenStream ts, Token t) {
    try {
      return GoText.unquote(t.text());
    } catch (IllegalArgumentException e) {
      ts.error(
          t.pos(),
          t.end(),
          "error unquoting string " + GoText.quote(t.text()) + ": " + e.getMessage());
      return "";
    }
  }
}
