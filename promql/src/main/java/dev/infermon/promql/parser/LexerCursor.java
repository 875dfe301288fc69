package dev.infermon.promql.parser;

/**
 * The cursor under {@link Lexer}: the input, the start and end of the token being scanned, the
 * one-rune step back, and the scanning of numbers and durations, all as in Prometheus's {@code
 * lex.go}. Not thread-safe.
 */
abstract class LexerCursor {
  static final int EOF = -1;

  final String input;
  int pos;
  int start;
  int width;
  Token item;

  LexerCursor(String input) {
    this.input = input;
  }

  final int next() {
    if (pos >= input.length()) {
      width = 0;
      return EOF;
    }
    int r = input.codePointAt(pos);
    width = Character.charCount(r);
    pos += width;
    return r;
  }

  final int peek() {
    int r = next();
    backup();
    return r;
  }

  final void backup() {
    pos -= width;
  }

  final void emit(TokenKind kind) {
    item = new Token(kind, input.substring(start, pos), start);
    start = pos;
  }

  final void ignore() {
    start = pos;
  }

  final boolean accept(String valid) {
    int r = next();
    if (r != EOF && valid.indexOf(r) >= 0) {
      return true;
    }
    backup();
    return false;
  }

  final boolean is(String valid) {
    int r = peek();
    return r != EOF && valid.indexOf(r) >= 0;
  }

  final void acceptRun(String valid) {
    int r;
    do {
      r = next();
    } while (r != EOF && valid.indexOf(r) >= 0);
    backup();
  }

  /** Records an error token at the start of the current token. */
  final void fail(String message) {
    item = new Token(TokenKind.ERROR, message, start);
  }

  final void skipSpaces() {
    while (isSpace(peek())) {
      next();
    }
    ignore();
  }

  final boolean acceptRemainingDuration() {
    if (!accept("smhdwy")) {
      return false;
    }
    // "ms"; bad units such as "hs" are caught when the duration is parsed.
    accept("s");
    while (accept("0123456789")) {
      while (accept("0123456789")) {
        // consume
      }
      // "y" must come first, so it is not accepted here.
      if (!accept("smhdw")) {
        return false;
      }
      accept("s");
    }
    return !isAlphaNumeric(next());
  }

  /** Scans a decimal, hex, octal or float number; the text is validated by the parser. */
  final boolean scanNumber() {
    int initialPos = pos;
    String digitPattern = "0123456789";
    if (accept("0") && accept("xX")) {
      accept("_");
      digitPattern = "0123456789abcdefABCDEF";
    }
    accept(".");
    accept(digitPattern);
    boolean dotConsumed = false;
    boolean exponentConsumed = false;
    while (is(digitPattern + "._eE")) {
      if (is(".") && dotConsumed) {
        accept(".");
        return false;
      }
      if (is("eE") && exponentConsumed) {
        accept("eE");
        return false;
      }
      if (accept(".")) {
        dotConsumed = true;
        if (accept("_.")) {
          return false;
        }
        if (digitPattern.length() > 10) {
          // Fractional hexadecimal literals are not allowed.
          return false;
        }
        continue;
      }
      if (accept("eE")) {
        exponentConsumed = true;
        accept("+-");
        if (accept("._eE") || peek() == EOF) {
          return false;
        }
        continue;
      }
      if (accept("_")) {
        if (accept("._eE") || peek() == EOF) {
          return false;
        }
        continue;
      }
      acceptRun(digitPattern);
    }
    if (pos == initialPos) {
      return false;
    }
    return !isAlphaNumeric(peek());
  }

  /**
   * Scans an escape sequence after its backslash, as Go's scanner does.
   *
   * @return null if valid, else the error message
   */
  final String scanEscape(int quote) {
    int n;
    int base;
    int max;
    int ch = next();
    switch (ch) {
      case 'a':
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
      case 'v':
      case '\\':
        return null;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':
        n = 3;
        base = 8;
        max = 255;
        break;
      case 'x':
        ch = next();
        n = 2;
        base = 16;
        max = 255;
        break;
      case 'u':
        ch = next();
        n = 4;
        base = 16;
        max = Character.MAX_CODE_POINT;
        break;
      case 'U':
        ch = next();
        n = 8;
        base = 16;
        max = Character.MAX_CODE_POINT;
        break;
      case EOF:
        return "escape sequence not terminated";
      default:
        if (ch == quote) {
          return null;
        }
        return "unknown escape sequence " + GoText.unicode(ch);
    }
    long x = 0;
    while (n > 0) {
      int d = digitVal(ch);
      if (d >= base) {
        if (ch == EOF) {
          return "escape sequence not terminated";
        }
        return "illegal character " + GoText.unicode(ch) + " in escape sequence";
      }
      x = x * base + d;
      n--;
      if (n > 0) {
        ch = next();
      }
    }
    if (x > max || (0xD800 <= x && x < 0xE000)) {
      return "escape sequence is an invalid Unicode code point";
    }
    return null;
  }

  private static int digitVal(int ch) {
    if ('0' <= ch && ch <= '9') {
      return ch - '0';
    }
    if ('a' <= ch && ch <= 'f') {
      return ch - 'a' + 10;
    }
    if ('A' <= ch && ch <= 'F') {
      return ch - 'A' + 10;
    }
    return 16;
  }

  static boolean isSpace(int r) {
    return r == ' ' || r == '\t' || r == '\n' || r == '\r';
  }

  static boolean isEndOfLine(int r) {
    return r == '\r' || r == '\n';
  }

  static boolean isAlphaNumeric(int r) {
    return isAlpha(r) || isDigit(r);
  }

  static boolean isDigit(int r) {
    return '0' <= r && r <= '9';
  }

  static boolean isAlpha(int r) {
    return r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z');
  }
}
