package dev.infermon.textparse;

import dev.infermon.model.metadata.MetricType;

/**
 * OpenMetrics 1.0 text: single spaces between tokens, no blank lines, {@code # HELP}, {@code #
 * TYPE}, {@code # UNIT} and a final {@code # EOF} as the only comments, timestamps in seconds,
 * exemplars after {@code " # "}. Quoted names (Prometheus' UTF-8 extension) are accepted as in the
 * text format.
 */
final class OpenMetricsParser extends BaseParser {
  private final OpenMetricsRules rules;
  private boolean sawEof;

  OpenMetricsParser(LineReader reader, ParserOptions options, SymbolTable symbols) {
    super(reader, options, symbols, options.openMetricsConformance() == Conformance.STRICT);
    this.rules = strict ? new OpenMetricsRules(this) : null;
  }

  @Override
  public Format format() {
    return Format.OPENMETRICS;
  }

  @Override
  Entry advance() throws ParseException {
    if (sawEof) {
      return Entry.EOF;
    }
    if (!nextLine()) {
      throw atEnd(ParseException.Reason.SYNTAX, "the page does not end with \"# EOF\"");
    }
    if (ls == le) {
      throw syntax(ls, "blank lines are not allowed in OpenMetrics");
    }
    if (b[ls] == '#') {
      Entry e = commentLine();
      if (e == Entry.EOF) {
        eof();
      } else if (rules != null) {
        current(e);
        rules.metadata(e);
      }
      return e;
    }
    sample();
    if (rules != null) {
      current(Entry.SERIES);
      rules.sample();
    }
    return Entry.SERIES;
  }

  private void eof() throws ParseException {
    boolean terminated = reader.terminated;
    int line = reader.lineNo;
    if (terminated && nextLine()) {
      throw new ParseException(
          ParseException.Reason.SYNTAX,
          reader.lineNo,
          1,
          "unexpected data after \"# EOF\" (line " + line + "): " + quote(ls, le),
          false,
          null);
    }
    if (rules != null) {
      rules.end();
    }
    sawEof = true;
  }

  private Entry commentLine() throws ParseException {
    int n = le - ls;
    if (n == 5 && matches(ls, "# EOF")) {
      return Entry.EOF;
    }
    Entry kind = null;
    if (n >= 7 && b[ls + 1] == ' ' && b[ls + 6] == ' ') {
      if (matches(ls + 2, "HELP")) {
        kind = Entry.HELP;
      } else if (matches(ls + 2, "TYPE")) {
        kind = Entry.TYPE;
      } else if (matches(ls + 2, "UNIT")) {
        kind = Entry.UNIT;
      }
    }
    if (kind == null) {
      throw syntax(
          ls,
          "invalid comment "
              + quote(ls, le)
              + ": OpenMetrics has only \"# HELP\", \"# TYPE\", \"# UNIT\" and \"# EOF\" lines");
    }
    int i = ls + 7;
    if (i < le && b[i] == '"') {
      int close = scanQuoted(i, "metric name", false);
      metaNameStart = i + 1;
      metaNameEnd = close;
      metaNameEscaped = lastQuotedEscaped;
      i = close + 1;
    } else if (i < le && is(NAME_START, b[i])) {
      metaNameStart = i;
      i = scanName(i);
      metaNameEnd = i;
      metaNameEscaped = false;
    } else {
      throw syntax(i, "expected a metric name after " + kind + ", got " + quoteToken(i));
    }
    if (i >= le) {
      throw syntax(
          i,
          "expected ' ' and the "
              + kind.name().toLowerCase(java.util.Locale.ROOT)
              + " after metric name "
              + quote(metaNameStart, metaNameEnd)
              + ", got end of line");
    }
    if (b[i] != ' ') {
      throw syntax(
          i, "unexpected " + quoteChar(i) + " after metric name " + quote(metaNameStart, i));
    }
    textStart = i + 1;
    textEnd = le;
    switch (kind) {
      case HELP:
        textEscaped = false;
        for (int k = textStart; k < le; k++) {
          if (b[k] == '\\') {
            textEscaped = true;
            break;
          }
        }
        int bad = Utf8.invalidAt(b, textStart, le);
        if (bad >= 0) {
          throw syntax(bad, "invalid UTF-8 in help text " + quote(textStart, le));
        }
        break;
      case TYPE:
        metaType = omType(textStart, le);
        if (metaType == null) {
          throw syntax(
              textStart,
              "invalid metric type "
                  + quote(textStart, le)
                  + ": expected counter, gauge, histogram, gaugehistogram, summary, info,"
                  + " stateset or unknown");
        }
        break;
      default: // UNIT
        int bad2 = Utf8.invalidAt(b, textStart, le);
        if (bad2 >= 0) {
          throw syntax(bad2, "invalid UTF-8 in unit " + quote(textStart, le));
        }
        checkUnitSuffix();
    }
    return kind;
  }

  /** Prometheus checks this in the parser too: a unit must end the family name. */
  private void checkUnitSuffix() throws ParseException {
    int ul = textEnd - textStart;
    if (ul == 0) {
      return;
    }
    int nl = metaNameEnd - metaNameStart;
    boolean ok =
        nl > ul
            && b[metaNameEnd - ul - 1] == '_'
            && java.util.Arrays.equals(b, metaNameEnd - ul, metaNameEnd, b, textStart, textEnd);
    if (!ok) {
      throw syntax(
          textStart,
          "unit "
              + quote(textStart, textEnd)
              + " is not a suffix of metric name "
              + quote(metaNameStart, metaNameEnd));
    }
  }

  private boolean matches(int i, String word) {
    if (i + word.length() > le) {
      return false;
    }
    for (int k = 0; k < word.length(); k++) {
      if (b[i + k] != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private MetricType omType(int s, int e) {
    switch (e - s) {
      case 4:
        return matches(s, "info") ? MetricType.INFO : null;
      case 5:
        return matches(s, "gauge") ? MetricType.GAUGE : null;
      case 7:
        if (matches(s, "counter")) {
          return MetricType.COUNTER;
        }
        if (matches(s, "summary")) {
          return MetricType.SUMMARY;
        }
        return matches(s, "unknown") ? MetricType.UNKNOWN : null;
      case 8:
        return matches(s, "stateset") ? MetricType.STATESET : null;
      case 9:
        return matches(s, "histogram") ? MetricType.HISTOGRAM : null;
      case 14:
        return matches(s, "gaugehistogram") ? MetricType.GAUGEHISTOGRAM : null;
      default:
        return null;
    }
  }

  /** {@code name[{labels}] value[ timestamp][ # {labels} value[ timestamp]]}. */
  private void sample() throws ParseException {
    int i = ls;
    seriesStart = i;
    byte c = b[i];
    if (is(NAME_START, c)) {
      nameStart = i;
      i = scanName(i);
      nameEnd = i;
      nameEscaped = false;
      if (i < le && b[i] == '{') {
        i = parseLabels(i + 1, labels, false, false, "label set");
      } else {
        labels.clear();
      }
    } else if (c == '{') {
      nameStart = -1;
      i = parseLabels(i + 1, labels, true, false, "label set");
      if (nameStart < 0) {
        throw syntax(seriesStart, "no metric name in " + quote(seriesStart, i));
      }
    } else {
      throw syntax(i, "expected a metric name or a '#', got " + quoteToken(i));
    }
    seriesEnd = i;
    if (i >= le || b[i] != ' ') {
      throw syntax(
          i,
          "expected ' ' and a value after "
              + quote(seriesStart, seriesEnd)
              + ", got "
              + quoteChar(i));
    }
    i++;
    int vs = i;
    i = spaceOrEnd(i);
    if (!numbers.parseFloat(b, vs, i)) {
      throw syntax(
          vs, vs == i ? "expected a value, got " + quoteChar(i) : "invalid value " + quote(vs, i));
    }
    value = numbers.value;
    valueStart = vs;
    hasTimestamp = false;
    hasExemplar = false;
    if (i == le) {
      return;
    }
    i++; // the space
    if (i < le && b[i] != '#') {
      int ts = i;
      i = spaceOrEnd(i);
      if (!numbers.parseSecondsTimestamp(b, ts, i)) {
        throw syntax(
            ts,
            ts == i
                ? "expected a timestamp, got " + quoteChar(i)
                : "invalid timestamp " + quote(ts, i) + ": expected a number of seconds");
      }
      hasTimestamp = true;
      timestamp = numbers.millis;
      if (i == le) {
        return;
      }
      i++;
    }
    exemplar(i);
  }

  private int spaceOrEnd(int i) {
    while (i < le && b[i] != ' ') {
      i++;
    }
    return i;
  }

  /** {@code # {labels} value[ timestamp]} starting at the '#'. */
  private void exemplar(int i) throws ParseException {
    if (i >= le) {
      throw syntax(i - 1, "unexpected ' ' at the end of the line");
    }
    if (i + 2 >= le || b[i] != '#' || b[i + 1] != ' ' || b[i + 2] != '{') {
      throw syntax(
          i, "expected \" # {\" and an exemplar, got " + quote(i - 1, Math.min(le, i + 3)));
    }
    i = parseLabels(i + 3, exemplarLabels, false, false, "exemplar label set");
    if (i >= le || b[i] != ' ') {
      throw syntax(i, "expected ' ' and a value after the exemplar's labels, got " + quoteChar(i));
    }
    i++;
    int vs = i;
    i = spaceOrEnd(i);
    if (!numbers.parseFloat(b, vs, i)) {
      throw syntax(
          vs,
          vs == i
              ? "expected an exemplar value, got " + quoteChar(i)
              : "invalid exemplar value " + quote(vs, i));
    }
    exemplarValue = numbers.value;
    exemplarHasTimestamp = false;
    if (i < le) {
      i++;
      int ts = i;
      i = spaceOrEnd(i);
      if (!numbers.parseSecondsTimestamp(b, ts, i)) {
        throw syntax(
            ts,
            ts == i
                ? "expected an exemplar timestamp, got " + quoteChar(i)
                : "invalid exemplar timestamp " + quote(ts, i) + ": expected a number of seconds");
      }
      if (i != le) {
        throw syntax(i, "unexpected " + quote(i, le) + " after the exemplar");
      }
      exemplarHasTimestamp = true;
      exemplarTimestamp = numbers.millis;
    }
    hasExemplar = true;
  }
}
