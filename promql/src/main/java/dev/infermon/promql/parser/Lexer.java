package dev.infermon.promql.parser;

/**
 * The PromQL lexer: a port of Prometheus's state-function lexer ({@code promql/parser/lex.go}),
 * kept state for state so that tokens, their positions and the wording of lexical errors are the
 * same. Lexical errors come back as {@link TokenKind#ERROR} tokens carrying the message; after one,
 * the lexer only returns {@link TokenKind#EOF}.
 *
 * <p>Positions are offsets in the Java string (UTF-16 units). Not thread-safe: one per parse.
 */
final class Lexer extends LexerCursor {

  private enum State {
    STATEMENTS,
    INSIDE_BRACES,
    LINE_COMMENT,
    SPACE,
    STRING,
    RAW_STRING,
    ESCAPE,
    NUMBER_OR_DURATION,
    KEYWORD_OR_IDENTIFIER,
    IDENTIFIER,
    DURATION_EXPR
  }

  private State state = State.STATEMENTS;

  private int parenDepth;
  private boolean braceOpen;
  private boolean bracketOpen;
  private boolean gotColon;
  private boolean gotDuration;
  private int stringOpen;

  Lexer(String input) {
    super(input);
  }

  /** The next token, comments included; {@link TokenKind#EOF} forever once the input is done. */
  Token nextToken() {
    item = null;
    if (state == null) {
      return new Token(TokenKind.EOF, "", start);
    }
    while (item == null) {
      state = step(state);
      if (state == null && item == null) {
        emit(TokenKind.EOF);
      }
    }
    return item;
  }

  private State step(State s) {
    switch (s) {
      case STATEMENTS:
        return lexStatements();
      case INSIDE_BRACES:
        return lexInsideBraces();
      case LINE_COMMENT:
        return lexLineComment();
      case SPACE:
        return lexSpace();
      case STRING:
        return lexString();
      case RAW_STRING:
        return lexRawString();
      case ESCAPE:
        return lexEscape();
      case NUMBER_OR_DURATION:
        return lexNumberOrDuration();
      case KEYWORD_OR_IDENTIFIER:
        return lexKeywordOrIdentifier();
      case IDENTIFIER:
        return lexIdentifier();
      case DURATION_EXPR:
        return lexDurationExpr();
      default:
        throw new AssertionError(s);
    }
  }

  /** Emits an error token at the start of the current token and stops lexing. */
  private State error(String message) {
    fail(message);
    return null;
  }

  // ---- states, as in lex.go ----

  private State lexStatements() {
    if (braceOpen) {
      return State.INSIDE_BRACES;
    }
    if (input.startsWith("#", pos)) {
      return State.LINE_COMMENT;
    }
    int r = next();
    if (r == EOF) {
      if (parenDepth != 0) {
        return error("unclosed left parenthesis");
      } else if (bracketOpen) {
        return error("unclosed left bracket");
      }
      emit(TokenKind.EOF);
      return null;
    }
    TokenKind op = operator(r);
    if (op != null) {
      emit(op);
      return State.STATEMENTS;
    }
    switch (r) {
      case '=':
        {
          int t = peek();
          if (t == '=') {
            next();
            emit(TokenKind.EQLC);
          } else if (t == '~') {
            return error("unexpected character after '=': " + GoText.quoteRune(t));
          } else {
            emit(TokenKind.EQL);
          }
          return State.STATEMENTS;
        }
      case '!':
        {
          int t = next();
          if (t != '=') {
            return error("unexpected character after '!': " + GoText.quoteRune(t));
          }
          emit(TokenKind.NEQ);
          return State.STATEMENTS;
        }
      case '<':
      case '>':
        if (peek() == '=') {
          next();
          emit(r == '<' ? TokenKind.LTE : TokenKind.GTE);
        } else {
          emit(r == '<' ? TokenKind.LSS : TokenKind.GTR);
        }
        return State.STATEMENTS;
      case '"':
      case '\'':
      case '`':
        return openString(r);
      case '(':
      case ')':
        return paren(r, State.STATEMENTS);
      case '{':
        emit(TokenKind.LEFT_BRACE);
        braceOpen = true;
        return State.INSIDE_BRACES;
      case '[':
        if (bracketOpen) {
          return error("unexpected left bracket " + GoText.quoteRune(r));
        }
        gotColon = false;
        emit(TokenKind.LEFT_BRACKET);
        skipSpaces();
        bracketOpen = true;
        return State.DURATION_EXPR;
      case ']':
        if (!bracketOpen) {
          return error("unexpected right bracket " + GoText.quoteRune(r));
        }
        emit(TokenKind.RIGHT_BRACKET);
        bracketOpen = false;
        return State.STATEMENTS;
      case '@':
        emit(TokenKind.AT);
        return State.STATEMENTS;
      default:
        break;
    }
    if (isSpace(r)) {
      return State.SPACE;
    }
    if (isDigit(r) || (r == '.' && isDigit(peek()))) {
      backup();
      return State.NUMBER_OR_DURATION;
    }
    if (isAlpha(r) || r == ':') {
      if (!bracketOpen) {
        backup();
        return State.KEYWORD_OR_IDENTIFIER;
      }
      if (r == ':') {
        if (gotColon) {
          return error("unexpected colon " + GoText.quoteRune(r));
        }
        if (peek() == ':') {
          next();
          emit(TokenKind.DOUBLE_COLON);
        } else {
          emit(TokenKind.COLON);
        }
        gotColon = true;
        return State.STATEMENTS;
      }
      if ((r == 's' || r == 'S' || r == 'm' || r == 'M') && scanDurationKeyword()) {
        return State.STATEMENTS;
      }
      return error(
          "unexpected character: " + GoText.quoteRune(r) + ", expected " + GoText.quoteRune(':'));
    }
    return error("unexpected character: " + GoText.quoteRune(r));
  }

  private State lexInsideBraces() {
    if (input.startsWith("#", pos)) {
      return State.LINE_COMMENT;
    }
    int r = next();
    if (r == EOF) {
      return error("unexpected end of input inside braces");
    }
    if (isSpace(r)) {
      return State.SPACE;
    }
    if (isAlpha(r)) {
      backup();
      return State.IDENTIFIER;
    }
    switch (r) {
      case ',':
        emit(TokenKind.COMMA);
        break;
      case '"':
      case '\'':
      case '`':
        return openString(r);
      case '=':
        if (next() == '~') {
          emit(TokenKind.EQL_REGEX);
          break;
        }
        backup();
        emit(TokenKind.EQL);
        break;
      case '!':
        {
          int nr = next();
          if (nr == '~') {
            emit(TokenKind.NEQ_REGEX);
          } else if (nr == '=') {
            emit(TokenKind.NEQ);
          } else {
            return error("unexpected character after '!' inside braces: " + GoText.quoteRune(nr));
          }
          break;
        }
      case '{':
        return error("unexpected left brace " + GoText.quoteRune(r));
      case '}':
        emit(TokenKind.RIGHT_BRACE);
        braceOpen = false;
        return State.STATEMENTS;
      default:
        return error("unexpected character inside braces: " + GoText.quoteRune(r));
    }
    return State.INSIDE_BRACES;
  }

  /**
   * The token of a one-character operator or the comma, or null: the same in statements and in
   * duration expressions, which differ only in the state they go on in.
   */
  private static TokenKind operator(int r) {
    switch (r) {
      case ',':
        return TokenKind.COMMA;
      case '*':
        return TokenKind.MUL;
      case '/':
        return TokenKind.DIV;
      case '%':
        return TokenKind.MOD;
      case '+':
        return TokenKind.ADD;
      case '-':
        return TokenKind.SUB;
      case '^':
        return TokenKind.POW;
      default:
        return null;
    }
  }

  /** Emits a parenthesis and goes on in {@code then}; the depth is shared by all states. */
  private State paren(int r, State then) {
    if (r == '(') {
      emit(TokenKind.LEFT_PAREN);
      parenDepth++;
      return then;
    }
    emit(TokenKind.RIGHT_PAREN);
    parenDepth--;
    if (parenDepth < 0) {
      return error("unexpected right parenthesis " + GoText.quoteRune(r));
    }
    return then;
  }

  /** A quote opens a string: backquoted ones are raw (no escapes, may span lines). */
  private State openString(int r) {
    stringOpen = r;
    return r == '`' ? State.RAW_STRING : State.STRING;
  }

  private State lexEscape() {
    String problem = scanEscape(stringOpen);
    return problem == null ? State.STRING : error(problem);
  }

  private State lexString() {
    while (true) {
      int r = next();
      if (r == '\\') {
        return State.ESCAPE;
      }
      if (r == EOF || r == '\n') {
        return error("unterminated quoted string");
      }
      if (r == stringOpen) {
        break;
      }
    }
    emit(TokenKind.STRING);
    return State.STATEMENTS;
  }

  private State lexRawString() {
    while (true) {
      int r = next();
      if (r == EOF) {
        return error("unterminated raw string");
      }
      if (r == stringOpen) {
        break;
      }
    }
    emit(TokenKind.STRING);
    return State.STATEMENTS;
  }

  private State lexSpace() {
    while (isSpace(peek())) {
      next();
    }
    ignore();
    return State.STATEMENTS;
  }

  private State lexLineComment() {
    pos += 1;
    int r = next();
    while (!isEndOfLine(r) && r != EOF) {
      r = next();
    }
    backup();
    emit(TokenKind.COMMENT);
    return State.STATEMENTS;
  }

  private boolean scanDurationKeyword() {
    while (true) {
      int r = next();
      if (isAlpha(r)) {
        continue;
      }
      backup();
      String word = input.substring(start, pos).toLowerCase(java.util.Locale.ROOT);
      switch (word) {
        case "step":
          emit(TokenKind.STEP);
          return true;
        case "range":
          emit(TokenKind.RANGE);
          return true;
        case "min":
          emit(TokenKind.MIN);
          return true;
        case "max":
          emit(TokenKind.MAX);
          return true;
        default:
          return false;
      }
    }
  }

  private State lexNumberOrDuration() {
    if (scanNumber()) {
      emit(TokenKind.NUMBER);
      return State.STATEMENTS;
    }
    if (acceptRemainingDuration()) {
      backup();
      emit(TokenKind.DURATION);
      return State.STATEMENTS;
    }
    return error("bad number or duration syntax: " + GoText.quote(input.substring(start, pos)));
  }

  private State lexIdentifier() {
    while (isAlphaNumeric(next())) {
      // absorb
    }
    backup();
    emit(TokenKind.IDENTIFIER);
    return State.STATEMENTS;
  }

  private State lexKeywordOrIdentifier() {
    while (true) {
      int r = next();
      if (isAlphaNumeric(r) || r == ':') {
        continue;
      }
      backup();
      String word = input.substring(start, pos);
      TokenKind kw = TokenKind.keyword(word);
      if (kw != null) {
        // fill, fill_left and fill_right are keywords only before "(", so that they stay usable as
        // metric names.
        if ((kw == TokenKind.FILL || kw == TokenKind.FILL_LEFT || kw == TokenKind.FILL_RIGHT)
            && !followedByLeftParen()) {
          emit(TokenKind.IDENTIFIER);
        } else {
          emit(kw);
        }
      } else if (word.indexOf(':') < 0) {
        emit(TokenKind.IDENTIFIER);
      } else {
        emit(TokenKind.METRIC_IDENTIFIER);
      }
      return State.STATEMENTS;
    }
  }

  private boolean followedByLeftParen() {
    for (int p = pos; p < input.length(); p++) {
      char c = input.charAt(p);
      if (!isSpace(c)) {
        return c == '(';
      }
    }
    return false;
  }

  /** Inside brackets: a range or subquery, or Prometheus's experimental duration arithmetic. */
  private State lexDurationExpr() {
    int r = next();
    TokenKind op = operator(r);
    if (op != null) {
      emit(op);
      return State.DURATION_EXPR;
    }
    switch (r) {
      case EOF:
        return error("unexpected end of input in duration expression");
      case ']':
        emit(TokenKind.RIGHT_BRACKET);
        bracketOpen = false;
        gotColon = false;
        return State.STATEMENTS;
      case ':':
        emit(TokenKind.COLON);
        if (!gotDuration) {
          return error("unexpected colon before duration in duration expression");
        }
        if (gotColon) {
          return error("unexpected repeated colon in duration expression");
        }
        gotColon = true;
        return State.DURATION_EXPR;
      case '(':
      case ')':
        return paren(r, State.DURATION_EXPR);
      case 's':
      case 'S':
      case 'm':
      case 'M':
      case 'r':
      case 'R':
        if (scanDurationKeyword()) {
          return State.DURATION_EXPR;
        }
        return error("unexpected character in duration expression: " + GoText.quoteRune(r));
      default:
        break;
    }
    if (isSpace(r)) {
      skipSpaces();
      return State.DURATION_EXPR;
    }
    if (isDigit(r) || (r == '.' && isDigit(peek()))) {
      backup();
      gotDuration = true;
      return State.NUMBER_OR_DURATION;
    }
    return error("unexpected character in duration expression: " + GoText.quoteRune(r));
  }
}
