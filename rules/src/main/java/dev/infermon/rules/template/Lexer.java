package dev.infermon.rules.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Splits a template into tokens as Go's {@code text/template/parse} lexer does: text between
 * actions, {@code {{- }} and {@code -}}} trim markers, comments, and the items inside actions.
 * Errors carry Go's messages ({@code unclosed action}, {@code unrecognized character in action}).
 */
final class Lexer {
  private static final Set<String> KEYWORDS =
      Set.of(
          "if", "else", "end", "range", "with", "define", "template", "block", "break", "continue");

  private final String name;
  private final String s;
  private final List<Token> out = new ArrayList<>();
  private int i;

  private Lexer(String name, String s) {
    this.name = name;
    this.s = s;
  }

  static List<Token> lex(String name, String text) {
    Lexer l = new Lexer(name, text);
    l.run();
    return l.out;
  }

  private void run() {
    int textStart = 0;
    boolean trimNextText = false;
    while (true) {
      int open = s.indexOf("{{", i);
      int end = open < 0 ? s.length() : open;
      boolean trimLeft =
          open >= 0 && s.startsWith("{{- ", open) || open >= 0 && isTrimBeforeSpace(open);
      String text = s.substring(textStart, end);
      if (trimNextText) {
        text = stripLeading(text);
      }
      if (trimLeft) {
        text = stripTrailing(text);
      }
      if (!text.isEmpty()) {
        out.add(new Token(Token.Kind.TEXT, text, textStart));
      }
      if (open < 0) {
        out.add(new Token(Token.Kind.EOF, "", s.length()));
        return;
      }
      i = open + 2 + (trimLeft ? 2 : 0);
      if (s.startsWith("/*", i)) {
        int close = s.indexOf("*/", i + 2);
        if (close < 0) {
          throw error(open, "unclosed comment");
        }
        i = close + 2;
        boolean trimRight = s.startsWith(" -}}", i);
        if (trimRight) {
          i += 4;
        } else if (s.startsWith("}}", i)) {
          i += 2;
        } else {
          throw error(open, "comment ends before closing delimiter");
        }
        trimNextText = trimRight;
        textStart = i;
        continue;
      }
      out.add(new Token(Token.Kind.LEFT_DELIM, "{{", open));
      trimNextText = lexInsideAction(open);
      textStart = i;
    }
  }

  private boolean isTrimBeforeSpace(int open) {
    if (!s.startsWith("{{-", open) || open + 3 >= s.length()) {
      return false;
    }
    char c = s.charAt(open + 3);
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  /** Lexes up to and including the closing delimiter; returns whether it trims what follows. */
  private boolean lexInsideAction(int open) {
    int parens = 0;
    while (true) {
      if (i >= s.length()) {
        throw error(open, "unclosed action");
      }
      char c = s.charAt(i);
      if (isSpace(c)) {
        int start = i;
        while (i < s.length() && isSpace(s.charAt(i))) {
          i++;
        }
        if (s.startsWith("-}}", i)) {
          out.add(new Token(Token.Kind.RIGHT_DELIM, "}}", i));
          i += 3;
          return true;
        }
        if (i >= s.length()) {
          i = start;
          throw error(open, "unclosed action");
        }
        continue;
      }
      if (s.startsWith("}}", i)) {
        if (parens > 0) {
          throw error(i, "unclosed left paren");
        }
        out.add(new Token(Token.Kind.RIGHT_DELIM, "}}", i));
        i += 2;
        return false;
      }
      int start = i;
      if (c == '|') {
        i++;
        out.add(new Token(Token.Kind.PIPE, "|", start));
      } else if (c == '(') {
        i++;
        parens++;
        out.add(new Token(Token.Kind.LEFT_PAREN, "(", start));
      } else if (c == ')') {
        i++;
        parens--;
        if (parens < 0) {
          throw error(start, "unexpected right paren");
        }
        out.add(new Token(Token.Kind.RIGHT_PAREN, ")", start));
      } else if (c == ',') {
        i++;
        out.add(new Token(Token.Kind.COMMA, ",", start));
      } else if (c == ':' && s.startsWith(":=", i)) {
        i += 2;
        out.add(new Token(Token.Kind.DECLARE, ":=", start));
      } else if (c == '=') {
        i++;
        out.add(new Token(Token.Kind.ASSIGN, "=", start));
      } else if (c == '"') {
        out.add(new Token(Token.Kind.STRING, quoted(open), start));
      } else if (c == '`') {
        int close = s.indexOf('`', i + 1);
        if (close < 0) {
          throw error(open, "unterminated raw quoted string");
        }
        out.add(new Token(Token.Kind.STRING, s.substring(i + 1, close), start));
        i = close + 1;
      } else if (c == '$') {
        i++;
        while (i < s.length() && isAlnum(s.charAt(i))) {
          i++;
        }
        chain();
        out.add(new Token(Token.Kind.VARIABLE, s.substring(start, i), start));
      } else if (c == '.') {
        if (i + 1 < s.length() && Character.isDigit(s.charAt(i + 1))) {
          number(start);
        } else {
          fieldsAfterDot(start);
        }
      } else if (c == '+' || c == '-' || Character.isDigit(c)) {
        number(start);
      } else if (isAlnum(c)) {
        while (i < s.length() && isAlnum(s.charAt(i))) {
          i++;
        }
        String word = s.substring(start, i);
        Token.Kind kind;
        if (KEYWORDS.contains(word)) {
          kind = Token.Kind.KEYWORD;
        } else if (word.equals("true") || word.equals("false")) {
          kind = Token.Kind.BOOL;
        } else if (word.equals("nil")) {
          kind = Token.Kind.NIL;
        } else {
          kind = Token.Kind.IDENTIFIER;
        }
        out.add(new Token(kind, word, start));
      } else {
        throw error(start, String.format("unrecognized character in action: U+%04X", (int) c));
      }
    }
  }

  /** Consumes a field chain {@code .a.b} directly at the cursor. */
  private void chain() {
    while (i + 1 < s.length() && s.charAt(i) == '.' && isAlnum(s.charAt(i + 1))) {
      i++;
      while (i < s.length() && isAlnum(s.charAt(i))) {
        i++;
      }
    }
  }

  private void fieldsAfterDot(int start) {
    if (i + 1 >= s.length() || !isAlnum(s.charAt(i + 1))) {
      i++;
      out.add(new Token(Token.Kind.DOT, ".", start));
      return;
    }
    chain();
    out.add(new Token(Token.Kind.FIELD, s.substring(start, i), start));
  }

  private void number(int start) {
    i++;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (isAlnum(c) || c == '.' || ((c == '+' || c == '-') && isExponent(s.charAt(i - 1)))) {
        i++;
      } else {
        break;
      }
    }
    out.add(new Token(Token.Kind.NUMBER, s.substring(start, i), start));
  }

  private static boolean isExponent(char c) {
    return c == 'e' || c == 'E' || c == 'p' || c == 'P';
  }

  private String quoted(int open) {
    StringBuilder sb = new StringBuilder();
    i++;
    while (true) {
      if (i >= s.length() || s.charAt(i) == '\n') {
        throw error(open, "unterminated quoted string");
      }
      char c = s.charAt(i++);
      if (c == '"') {
        return sb.toString();
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (i >= s.length()) {
        throw error(open, "unterminated quoted string");
      }
      char e = s.charAt(i++);
      switch (e) {
        case 'n':
          sb.append('\n');
          break;
        case 't':
          sb.append('\t');
          break;
        case 'r':
          sb.append('\r');
          break;
        case '\\':
          sb.append('\\');
          break;
        case '"':
          sb.append('"');
          break;
        case '\'':
          sb.append('\'');
          break;
        case 'a':
          sb.append('\u0007');
          break;
        case 'b':
          sb.append('\b');
          break;
        case 'f':
          sb.append('\f');
          break;
        case 'v':
          sb.append('\u000b');
          break;
        case 'x':
          sb.append((char) Integer.parseInt(hex(2, open), 16));
          break;
        case 'u':
          sb.append((char) Integer.parseInt(hex(4, open), 16));
          break;
        case 'U':
          sb.appendCodePoint(Integer.parseInt(hex(8, open), 16));
          break;
        default:
          throw error(open, "invalid syntax");
      }
    }
  }

  private String hex(int n, int open) {
    if (i + n > s.length()) {
      throw error(open, "invalid syntax");
    }
    String h = s.substring(i, i + n);
    i += n;
    return h;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  private static boolean isAlnum(char c) {
    return c == '_' || Character.isLetterOrDigit(c);
  }

  private static String stripLeading(String t) {
    int k = 0;
    while (k < t.length() && isSpace(t.charAt(k))) {
      k++;
    }
    return t.substring(k);
  }

  private static String stripTrailing(String t) {
    int k = t.length();
    while (k > 0 && isSpace(t.charAt(k - 1))) {
      k--;
    }
    return t.substring(0, k);
  }

  private TemplateException error(int pos, String message) {
    return new TemplateException(name, Positions.line(s, pos), Positions.column(s, pos), message);
  }
}
