package dev.infermon.promql.parser;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Go's string quoting ({@code strconv.Quote}, {@code %q}, {@code %#U}) and Prometheus's {@code
 * strutil.Unquote}. PromQL's escapes, the printer's output and the wording of parse errors all
 * follow Go's rules, so they are reproduced here rather than approximated with Java escaping.
 */
final class GoText {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private GoText() {}

  /** Go's {@code strconv.Quote}: double-quoted, with Go escapes for non-printable runes. */
  static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ) {
      int r = s.codePointAt(i);
      i += Character.charCount(r);
      appendEscaped(sb, r, '"');
    }
    return sb.append('"').toString();
  }

  /**
   * Go's {@code strconv.QuoteRune} ({@code %q} of a rune); -1 (end of input) is shown as U+FFFD.
   */
  static String quoteRune(int r) {
    StringBuilder sb = new StringBuilder("'");
    appendEscaped(sb, r < 0 ? 0xFFFD : r, '\'');
    return sb.append('\'').toString();
  }

  /** Go's {@code %#U}: {@code U+0078 'x'}. */
  static String unicode(int r) {
    int cp = r < 0 ? 0xFFFD : r;
    String hex = Integer.toHexString(cp).toUpperCase(java.util.Locale.ROOT);
    StringBuilder sb = new StringBuilder("U+");
    for (int i = hex.length(); i < 4; i++) {
      sb.append('0');
    }
    sb.append(hex);
    if (isPrint(cp)) {
      sb.append(" '").appendCodePoint(cp).append('\'');
    }
    return sb.toString();
  }

  private static void appendEscaped(StringBuilder sb, int r, char quote) {
    if (r == quote || r == '\\') {
      sb.append('\\').appendCodePoint(r);
      return;
    }
    if (isPrint(r)) {
      sb.appendCodePoint(r);
      return;
    }
    switch (r) {
      case 0x07:
        sb.append("\\a");
        return;
      case '\b':
        sb.append("\\b");
        return;
      case '\f':
        sb.append("\\f");
        return;
      case '\n':
        sb.append("\\n");
        return;
      case '\r':
        sb.append("\\r");
        return;
      case '\t':
        sb.append("\\t");
        return;
      case 0x0b:
        sb.append("\\v");
        return;
      default:
        break;
    }
    if (r < ' ' || r == 0x7f) {
      sb.append("\\x").append(HEX[r >> 4]).append(HEX[r & 0xf]);
    } else if (r < 0x10000) {
      sb.append("\\u");
      appendHex(sb, r, 4);
    } else {
      sb.append("\\U");
      appendHex(sb, r, 8);
    }
  }

  private static void appendHex(StringBuilder sb, int v, int digits) {
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      sb.append(HEX[(v >> shift) & 0xf]);
    }
  }

  /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and ' '. */
  static boolean isPrint(int r) {
    if (r == ' ') {
      return true;
    }
    switch (Character.getType(r)) {
      case Character.UPPERCASE_LETTER:
      case Character.LOWERCASE_LETTER:
      case Character.TITLECASE_LETTER:
      case Character.MODIFIER_LETTER:
      case Character.OTHER_LETTER:
      case Character.NON_SPACING_MARK:
      case Character.ENCLOSING_MARK:
      case Character.COMBINING_SPACING_MARK:
      case Character.DECIMAL_DIGIT_NUMBER:
      case Character.LETTER_NUMBER:
      case Character.OTHER_NUMBER:
      case Character.CONNECTOR_PUNCTUATION:
      case Character.DASH_PUNCTUATION:
      case Character.START_PUNCTUATION:
      case Character.END_PUNCTUATION:
      case Character.INITIAL_QUOTE_PUNCTUATION:
      case Character.FINAL_QUOTE_PUNCTUATION:
      case Character.OTHER_PUNCTUATION:
      case Character.MATH_SYMBOL:
      case Character.CURRENCY_SYMBOL:
      case Character.MODIFIER_SYMBOL:
      case Character.OTHER_SYMBOL:
        return true;
      default:
        return false;
    }
  }

  /**
   * Prometheus's {@code strutil.Unquote}: a string literal in double quotes, single quotes (any
   * length) or backticks (raw). {@code \x} and octal escapes are bytes, so {@code "\xc3\xa9"} is
   * "é", as in Go.
   *
   * @throws IllegalArgumentException "invalid syntax", Go's {@code ErrSyntax}
   */
  static String unquote(String s) {
    int n = s.length();
    if (n < 2) {
      throw syntax();
    }
    char quote = s.charAt(0);
    if (quote != s.charAt(n - 1)) {
      throw syntax();
    }
    String body = s.substring(1, n - 1);
    if (quote == '`') {
      if (body.indexOf('`') >= 0) {
        throw syntax();
      }
      return body.replace("\r", "");
    }
    if (quote != '"' && quote != '\'') {
      throw syntax();
    }
    if (body.indexOf('\n') >= 0) {
      throw syntax();
    }
    if (body.indexOf('\\') < 0 && body.indexOf(quote) < 0) {
      return body;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length());
    int i = 0;
    while (i < body.length()) {
      int c = body.codePointAt(i);
      if (c == quote) {
        throw syntax();
      }
      if (c != '\\') {
        writeUtf8(out, c);
        i += Character.charCount(c);
        continue;
      }
      if (i + 1 >= body.length()) {
        throw syntax();
      }
      char e = body.charAt(i + 1);
      i += 2;
      switch (e) {
        case 'a':
          out.write(0x07);
          break;
        case 'b':
          out.write('\b');
          break;
        case 'f':
          out.write('\f');
          break;
        case 'n':
          out.write('\n');
          break;
        case 'r':
          out.write('\r');
          break;
        case 't':
          out.write('\t');
          break;
        case 'v':
          out.write(0x0b);
          break;
        case '\\':
          out.write('\\');
          break;
        case '\'':
        case '"':
          if (e != quote) {
            throw syntax();
          }
          out.write(e);
          break;
        case 'x':
        case 'u':
        case 'U':
          {
            int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            int v = hexValue(body, i, digits);
            i += digits;
            if (e == 'x') {
              out.write(v);
            } else {
              if (v > Character.MAX_CODE_POINT || (v >= 0xD800 && v < 0xE000)) {
                throw syntax();
              }
              writeUtf8(out, v);
            }
            break;
          }
        case '0':
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
          {
            if (i + 2 > body.length()) {
              throw syntax();
            }
            int v = e - '0';
            for (int k = 0; k < 2; k++) {
              char d = body.charAt(i + k);
              if (d < '0' || d > '7') {
                throw syntax();
              }
              v = v * 8 + (d - '0');
            }
            if (v > 255) {
              throw syntax();
            }
            i += 2;
            out.write(v);
            break;
          }
        default:
          throw syntax();
      }
    }
    return new String(out.toByteArray(), StandardCharsets.UTF_8);
  }

  private static int hexValue(String s, int from, int digits) {
    if (from + digits > s.length()) {
      throw syntax();
    }
    int v = 0;
    for (int k = 0; k < digits; k++) {
      int d = Character.digit(s.charAt(from + k), 16);
      if (d < 0) {
        throw syntax();
      }
      v = v * 16 + d;
    }
    return v;
  }

  private static void writeUtf8(ByteArrayOutputStream out, int cp) {
    byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
    out.write(b, 0, b.length);
  }

  private static IllegalArgumentException syntax() {
    return new IllegalArgumentException("invalid syntax");
  }
}
