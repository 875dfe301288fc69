package dev.infermon.textparse;

import dev.infermon.model.metadata.MetricType;

/**
 * The Prometheus text format 0.0.4, with 1.0.0's quoted names: the grammar of Prometheus' {@code
 * promlex.l}. Blanks (spaces and tabs) may separate every token and blank lines are skipped; a last
 * line without its newline is accepted (Prometheus appends one). Stricter than Prometheus in two
 * ways that only reject garbage: a newline inside a label value, and text glued to a metric name in
 * HELP or TYPE.
 */
final class TextParser extends BaseParser {
  private final TextRules rules;

  TextParser(LineReader reader, ParserOptions options, SymbolTable symbols) {
    super(reader, options, symbols, options.textConformance() == Conformance.STRICT);
    this.rules = strict ? new TextRules(this) : null;
  }

  @Override
  public Format format() {
    return Format.TEXT;
  }

  @Override
  Entry advance() throws ParseException {
    while (nextLine()) {
      int i = skipBlanks(ls);
      if (i == le) {
        continue; // blank lines are allowed
      }
      if (b[i] == '#') {
        Entry e = comment(i);
        if (rules != null && e != Entry.COMMENT) {
          current(e);
          rules.metadata(e);
        }
        return e;
      }
      sample(i);
      if (rules != null) {
        current(Entry.SERIES);
        rules.sample();
      }
      return Entry.SERIES;
    }
    if (rules != null) {
      rules.end();
    }
    return Entry.EOF;
  }

  /** {@code # HELP name text}, {@code # TYPE name type}, or any other comment. */
  private Entry comment(int hash) throws ParseException {
    int i = hash + 1;
    int j = skipBlanks(i);
    if (j > i && j + 4 < le) {
      boolean help = matches(j, "HELP");
      boolean type = !help && matches(j, "TYPE");
      if ((help || type) && (b[j + 4] == ' ' || b[j + 4] == '\t')) {
        return metadata(help ? Entry.HELP : Entry.TYPE, skipBlanks(j + 4));
      }
    }
    textStart = hash;
    textEnd = le;
    return Entry.COMMENT;
  }

  private boolean matches(int i, String word) {
    for (int k = 0; k < word.length(); k++) {
      if (b[i + k] != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private Entry metadata(Entry kind, int i) throws ParseException {
    String what = kind == Entry.HELP ? "HELP" : "TYPE";
    if (i >= le) {
      throw syntax(i, "expected a metric name after " + what + ", got end of line");
    }
    if (b[i] == '"') {
      int close = scanQuoted(i, "metric name", strict);
      metaNameStart = i + 1;
      metaNameEnd = close;
      metaNameEscaped = lastQuotedEscaped;
      i = close + 1;
    } else if (is(NAME_START, b[i])) {
      metaNameStart = i;
      i = scanName(i);
      metaNameEnd = i;
      metaNameEscaped = false;
    } else {
      throw syntax(i, "expected a metric name after " + what + ", got " + quoteToken(i));
    }
    if (i < le && b[i] != ' ' && b[i] != '\t') {
      throw syntax(
          i, "unexpected " + quoteChar(i) + " after metric name " + quote(metaNameStart, i));
    }
    if (kind == Entry.HELP) {
      // Prometheus drops exactly one blank between the name and the text.
      textStart = i < le ? i + 1 : le;
      textEnd = le;
      textEscaped = helpEscapes(textStart, le);
      int bad = Utf8.invalidAt(b, textStart, le);
      if (bad >= 0) {
        throw syntax(bad, "invalid UTF-8 in help text " + quote(textStart, le));
      }
      return Entry.HELP;
    }
    i = skipBlanks(i);
    int ts = i;
    while (i < le && b[i] != ' ' && b[i] != '\t') {
      i++;
    }
    int te = i;
    if (skipBlanks(i) != le) {
      throw syntax(skipBlanks(i), "unexpected " + quoteToken(skipBlanks(i)) + " after the type");
    }
    metaType = textType(ts, te);
    if (metaType == null) {
      throw syntax(
          ts,
          "invalid metric type "
              + quote(ts, te)
              + ": expected counter, gauge, histogram, summary or untyped");
    }
    textStart = ts;
    textEnd = te;
    return Entry.TYPE;
  }

  /** Whether help text has escapes; in strict mode only {@code \\} and {@code \n} exist. */
  private boolean helpEscapes(int from, int to) throws ParseException {
    boolean any = false;
    for (int i = from; i < to; i++) {
      if (b[i] == '\\') {
        any = true;
        if (strict && (i + 1 >= to || (b[i + 1] != '\\' && b[i + 1] != 'n'))) {
          throw conformance(
              i, "invalid escape sequence " + quote(i, Math.min(i + 2, to)) + " in help text");
        }
        i++;
      }
    }
    return any;
  }

  private MetricType textType(int s, int e) {
    switch (e - s) {
      case 5:
        return matches(s, "gauge") ? MetricType.GAUGE : null;
      case 7:
        if (matches(s, "counter")) {
          return MetricType.COUNTER;
        }
        if (matches(s, "summary")) {
          return MetricType.SUMMARY;
        }
        return matches(s, "untyped") ? MetricType.UNKNOWN : null;
      case 9:
        return matches(s, "histogram") ? MetricType.HISTOGRAM : null;
      default:
        return null;
    }
  }

  /** {@code name [{labels}] value [timestamp]}, or {@code {"name", labels} value [timestamp]}. */
  private void sample(int i) throws ParseException {
    seriesStart = i;
    hasExemplar = false;
    byte c = b[i];
    if (is(NAME_START, c)) {
      nameStart = i;
      i = scanName(i);
      nameEnd = i;
      nameEscaped = false;
      int j = skipBlanks(i);
      if (j < le && b[j] == '{') {
        i = parseLabels(j + 1, labels, false, true, "label set");
      } else {
        labels.clear();
        if (j == i && i < le) {
          throw syntax(
              i, "unexpected " + quoteChar(i) + " after metric name " + quote(nameStart, i));
        }
      }
    } else if (c == '{') {
      nameStart = -1;
      i = parseLabels(i + 1, labels, true, true, "label set");
      if (nameStart < 0) {
        throw syntax(seriesStart, "no metric name in " + quote(seriesStart, i));
      }
    } else {
      throw syntax(i, "expected a metric name, a '#' or a blank line, got " + quoteToken(i));
    }
    seriesEnd = i;
    i = skipBlanks(i);
    int vs = i;
    while (i < le && b[i] != ' ' && b[i] != '\t') {
      i++;
    }
    if (vs == i) {
      throw syntax(
          vs, "expected a value after " + quote(seriesStart, seriesEnd) + ", got end of line");
    }
    if (!numbers.parseFloat(b, vs, i)) {
      throw syntax(vs, "invalid value " + quote(vs, i));
    }
    value = numbers.value;
    valueStart = vs;
    i = skipBlanks(i);
    if (i == le) {
      hasTimestamp = false;
      return;
    }
    int ts = i;
    while (i < le && b[i] != ' ' && b[i] != '\t') {
      i++;
    }
    if (!numbers.parseTextTimestamp(b, ts, i)) {
      throw syntax(ts, "invalid timestamp " + quote(ts, i) + ": expected integer milliseconds");
    }
    hasTimestamp = true;
    timestamp = numbers.millis;
    i = skipBlanks(i);
    if (i != le) {
      throw syntax(i, "unexpected " + quoteToken(i) + " after the timestamp");
    }
  }
}
