package dev.infermon.promql.promqltest;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.promql.parser.PromqlParser;
import java.util.ArrayList;
import java.util.List;

/**
 * A series in promqltest notation: {@code metric{a="b"} 0+10x100 _ stale 1x3}, parsed as
 * Prometheus's {@code ParseSeriesDesc}: {@code a+bxn} is n+1 values starting at a, {@code axn} is
 * n+1 copies, {@code _xn} is n missing values, {@code stale} a staleness marker. The same notation
 * serves promtool's rule unit tests ({@code input_series}), which is why it is public.
 *
 * <p>Immutable: the arrays are copied in and out; {@link #value(int)} and {@link #isOmitted(int)}
 * read without copying.
 *
 * @param labels the series' labels
 * @param values one entry per step; {@link #OMITTED} entries are missing values
 * @param omitted which entries are missing
 * @param hasHistogram whether the line held native-histogram values (which are skipped)
 */
public record SeriesDescription(
    Labels labels, double[] values, boolean[] omitted, boolean hasHistogram) {
  static final double OMITTED = Double.NaN;

  /** The most values one item ({@code axn}) may expand to: a typo must not exhaust memory. */
  static final long MAX_REPEAT = 10_000_000;

  /**
   * Copies the arrays.
   *
   * @throws IllegalArgumentException if the arrays differ in length
   */
  public SeriesDescription {
    if (values.length != omitted.length) {
      throw new IllegalArgumentException(
          "values and omitted differ in length: " + values.length + " != " + omitted.length);
    }
    values = values.clone();
    omitted = omitted.clone();
  }

  /** A copy of the values, one per step ({@link #isOmitted(int) omitted} ones are NaN). */
  @Override
  public double[] values() {
    return values.clone();
  }

  /** A copy of the omitted flags, one per step. */
  @Override
  public boolean[] omitted() {
    return omitted.clone();
  }

  /** The number of steps described. */
  public int size() {
    return values.length;
  }

  /** The value at step {@code i}. */
  public double value(int i) {
    return values[i];
  }

  /** Whether step {@code i} has no value ({@code _}). */
  public boolean isOmitted(int i) {
    return omitted[i];
  }

  /**
   * The labels of a series written in metric notation ({@code name}, {@code name{a="b"}}, {@code
   * {"name", a='b'}}, {@code {}}), as Prometheus's {@code ParseMetric}.
   *
   * @throws IllegalArgumentException if the text is not exactly one label set
   */
  public static Labels parseMetric(String text) {
    Cursor c = new Cursor(text.trim());
    Labels l = parseLabels(c);
    c.skipSpace();
    if (!c.done()) {
      throw new IllegalArgumentException(
          "unexpected text after the label set: \"" + c.s.substring(c.i) + "\" in " + text);
    }
    return l;
  }

  /**
   * Parses one line; the value part may be empty.
   *
   * @throws IllegalArgumentException naming the part that does not parse
   */
  public static SeriesDescription parse(String line) {
    Cursor c = new Cursor(line.trim());
    Labels labels = parseLabels(c);
    List<Double> vals = new ArrayList<>();
    List<Boolean> omitted = new ArrayList<>();
    boolean hist = false;
    while (true) {
      c.skipSpace();
      if (c.done()) {
        break;
      }
      if (c.peek() == '{' && c.s.startsWith("{{", c.i)) {
        hist = true;
        int close = c.s.indexOf("}}", c.i);
        if (close < 0) {
          throw new IllegalArgumentException("unterminated histogram in " + line);
        }
        c.i = close + 2;
        // A histogram item may continue with +{{...}}xN or xN: consume up to the next space.
        while (!c.done() && !Character.isWhitespace(c.peek())) {
          if (c.s.startsWith("{{", c.i)) {
            int cl = c.s.indexOf("}}", c.i);
            c.i = cl < 0 ? c.s.length() : cl + 2;
          } else {
            c.i++;
          }
        }
        vals.add(OMITTED);
        omitted.add(true);
        continue;
      }
      String token = c.token();
      item(token, vals, omitted);
    }
    double[] v = new double[vals.size()];
    boolean[] o = new boolean[vals.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = vals.get(i);
      o[i] = omitted.get(i);
    }
    return new SeriesDescription(labels, v, o, hist);
  }

  private static void item(String token, List<Double> vals, List<Boolean> omitted) {
    if (token.equals("_")) {
      vals.add(OMITTED);
      omitted.add(true);
      return;
    }
    if (token.startsWith("_x")) {
      long n = count(token.substring(2), token);
      for (long i = 0; i < n; i++) {
        vals.add(OMITTED);
        omitted.add(true);
      }
      return;
    }
    Cursor c = new Cursor(token);
    double start = number(c);
    if (c.done()) {
      vals.add(start);
      omitted.add(false);
      return;
    }
    double inc = 0;
    if (c.peek() == '+' || c.peek() == '-') {
      inc = number(c);
    }
    if (c.done() || c.peek() != 'x') {
      throw new IllegalArgumentException("bad series value: " + token);
    }
    c.i++;
    long times = count(c.s.substring(c.i), token);
    vals.add(start);
    omitted.add(false);
    double v = start;
    for (long i = 1; i <= times; i++) {
      v += inc;
      vals.add(v);
      omitted.add(false);
    }
  }

  private static long count(String digits, String token) {
    long n;
    try {
      n = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad series value: " + token);
    }
    if (n < 0 || n > MAX_REPEAT) {
      throw new IllegalArgumentException("bad repetition count in " + token);
    }
    return n;
  }

  /** A number, {@code Inf}, {@code NaN} or {@code stale}, with an optional sign. */
  private static double number(Cursor c) {
    int from = c.i;
    if (c.peek() == '+' || c.peek() == '-') {
      c.i++;
    }
    String rest = c.s.substring(c.i);
    String lower = rest.toLowerCase(java.util.Locale.ROOT);
    if (lower.startsWith("stale")) {
      c.i += 5;
      return StaleNaN.VALUE;
    }
    if (lower.startsWith("inf") || lower.startsWith("nan")) {
      c.i += lower.startsWith("infinity") ? 8 : 3;
    } else {
      // No hexadecimal here: "1+0x3" means 1, then +0 three times (as Prometheus's lexer reads it).
      while (!c.done() && (Character.isDigit(c.peek()) || c.peek() == '.')) {
        c.i++;
      }
      if (!c.done() && (c.peek() == 'e' || c.peek() == 'E')) {
        c.i++;
        if (!c.done() && (c.peek() == '+' || c.peek() == '-')) {
          c.i++;
        }
        while (!c.done() && Character.isDigit(c.peek())) {
          c.i++;
        }
      }
    }
    String text = c.s.substring(from, c.i);
    if (text.isEmpty() || text.equals("+") || text.equals("-")) {
      throw new IllegalArgumentException("expected a number at: " + c.s.substring(from));
    }
    return PromqlParser.parseNumber(text);
  }

  /** {@code name}, {@code name{...}}, {@code {...}} with quoted or plain names. */
  static Labels parseLabels(Cursor c) {
    Labels.Builder b = Labels.builder();
    c.skipSpace();
    if (!c.done() && c.peek() != '{') {
      String name = c.identifier();
      b.set(Labels.METRIC_NAME, name);
    }
    if (!c.done() && c.peek() == '{') {
      c.i++;
      while (true) {
        c.skipSpace();
        if (c.done()) {
          throw new IllegalArgumentException("unterminated label set: " + c.s);
        }
        if (c.peek() == '}') {
          c.i++;
          break;
        }
        String name = c.peek() == '"' || c.peek() == '\'' ? c.quoted() : c.identifier();
        c.skipSpace();
        if (!c.done() && c.peek() == '=') {
          c.i++;
          c.skipSpace();
          String value = c.quoted();
          b.set(name, value);
        } else {
          // A quoted name alone in braces is the metric name.
          b.set(Labels.METRIC_NAME, name);
        }
        c.skipSpace();
        if (!c.done() && c.peek() == ',') {
          c.i++;
        }
      }
    }
    return b.build();
  }

  /** A small scanner over one line. */
  static final class Cursor {
    final String s;
    int i;

    Cursor(String s) {
      this.s = s;
    }

    boolean done() {
      return i >= s.length();
    }

    char peek() {
      return s.charAt(i);
    }

    void skipSpace() {
      while (!done() && Character.isWhitespace(peek())) {
        i++;
      }
    }

    String token() {
      int from = i;
      while (!done() && !Character.isWhitespace(peek())) {
        i++;
      }
      return s.substring(from, i);
    }

    String identifier() {
      int from = i;
      while (!done()) {
        char ch = peek();
        if (Character.isLetterOrDigit(ch) || ch == '_' || ch == ':') {
          i++;
        } else {
          break;
        }
      }
      if (from == i) {
        throw new IllegalArgumentException("expected a name at: " + s.substring(from));
      }
      return s.substring(from, i);
    }

    /** A Go-style quoted string: double quotes with escapes, or single quotes, or backquotes. */
    String quoted() {
      char q = peek();
      if (q != '"' && q != '\'' && q != '`') {
        throw new IllegalArgumentException("expected a quoted string at: " + s.substring(i));
      }
      i++;
      StringBuilder sb = new StringBuilder();
      while (!done() && peek() != q) {
        char ch = peek();
        if (ch == '\\' && q != '`') {
          i++;
          char e = peek();
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
            case '"':
            case '\'':
              sb.append(e);
              break;
            case 'u':
              sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
              i += 4;
              break;
            case 'x':
              sb.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
              i += 2;
              break;
            default:
              sb.append('\\').append(e);
          }
          i++;
          continue;
        }
        sb.append(ch);
        i++;
      }
      if (done()) {
        throw new IllegalArgumentException("unterminated string: " + s);
      }
      i++;
      return sb.toString();
    }
  }
}
