package dev.infermon.promql.parser;

/**
 * One lexed token.
 *
 * @param kind what was lexed
 * @param text the source text (for {@link TokenKind#ERROR}, the error message)
 * @param pos the offset of the first character in the input
 */
record Token(TokenKind kind, String text, int pos) {

  /** Offset just past the token's source text. */
  int end() {
    return kind == TokenKind.ERROR ? pos : pos + text.length();
  }

  /**
   * How the token is named in "unexpected ..." errors, exactly as Prometheus's {@code Item.desc()}
   * names it: {@code <op:*>}, {@code <aggr:sum>}, {@code <by>}, {@code "("}, {@code identifier
   * "foo"}, {@code end of input}.
   */
  String describe() {
    if (kind.hasSymbol()) {
      return display();
    }
    if (kind == TokenKind.EOF) {
      return kind.description();
    }
    return kind.description() + " " + display();
  }

  private String display() {
    switch (kind) {
      case EOF:
        return "EOF";
      case ERROR:
        return text;
      case IDENTIFIER:
      case METRIC_IDENTIFIER:
        return GoText.quote(text);
      default:
        break;
    }
    switch (kind.group) {
      case KEYWORD:
        return "<" + text + ">";
      case OPERATOR:
        return "<op:" + text + ">";
      case AGGREGATOR:
        return "<aggr:" + text + ">";
      default:
        break;
    }
    if (text.length() > 10) {
      // Go's %.10q: the first ten runes, quoted, then an ellipsis.
      int cut = text.offsetByCodePoints(0, Math.min(10, text.codePointCount(0, text.length())));
      return GoText.quote(text.substring(0, cut)) + "...";
    }
    return GoText.quote(text);
  }
}
