package dev.infermon.benchmarks.promql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader for Prometheus's API responses (a copy of the differential test's reader:
 * test code cannot be shared with this module): objects become {@link Map}s (in document order),
 * arrays {@link List}s, strings {@link String}s, numbers {@link Double}s, and {@code true}/{@code
 * false}/{@code null} themselves. Enough for {@code /api/v1/query_range}; not a general-purpose
 * parser (no surrogate-pair validation). Not thread-safe; one instance per text.
 */
final class Json {
  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  /**
   * Parses {@code text}; throws {@link IllegalArgumentException} naming the offset on bad input.
   */
  static Object parse(String text) {
    Json j = new Json(text);
    Object v = j.value();
    j.skipSpace();
    if (j.i != text.length()) {
      throw j.error("trailing characters");
    }
    return v;
  }

  private Object value() {
    skipSpace();
    if (i >= s.length()) {
      throw error("unexpected end");
    }
    char c = s.charAt(i);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        return number();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    i++;
    skipSpace();
    if (peek() == '}') {
      i++;
      return m;
    }
    while (true) {
      skipSpace();
      String key = string();
      skipSpace();
      expect(':');
      m.put(key, value());
      skipSpace();
      if (peek() == ',') {
        i++;
        continue;
      }
      expect('}');
      return m;
    }
  }

  private List<Object> array() {
    List<Object> a = new ArrayList<>();
    i++;
    skipSpace();
    if (peek() == ']') {
      i++;
      return a;
    }
    while (true) {
      a.add(value());
      skipSpace();
      if (peek() == ',') {
        i++;
        continue;
      }
      expect(']');
      return a;
    }
  }

  private String string() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (i >= s.length()) {
        throw error("unterminated string");
      }
      char c = s.charAt(i++);
      if (c == '"') {
        return sb.toString();
      }
      if (c != '\\') {
        sb.append(c);
        continue;
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
        case 'b':
          sb.append('\b');
          break;
        case 'f':
          sb.append('\f');
          break;
        case 'u':
          sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          i += 4;
          break;
        default:
          sb.append(e); // \" \\ \/
      }
    }
  }

  private Double number() {
    int start = i;
    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
      i++;
    }
    if (start == i) {
      throw error("unexpected character '" + s.charAt(i) + "'");
    }
    return Double.valueOf(s.substring(start, i));
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, i)) {
      throw error("expected " + word);
    }
    i += word.length();
    return v;
  }

  private char peek() {
    return i < s.length() ? s.charAt(i) : '\0';
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    i++;
  }

  private void skipSpace() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("bad JSON at offset " + i + ": " + what);
  }
}
