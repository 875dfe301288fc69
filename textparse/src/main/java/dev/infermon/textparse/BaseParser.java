package dev.infermon.textparse;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.MetricType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Optional;

/**
 * What both formats share: the line source, the current entry's state as offsets into the line, the
 * label grammar, String making through the {@link SymbolTable}, and error construction. The
 * subclasses own each format's line grammar.
 */
abstract class BaseParser implements Parser {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Byte classes, as bit flags. */
  static final byte[] CLASS = new byte[256];

  static final int NAME_START = 1; // [a-zA-Z_:]
  static final int NAME_CHAR = 2; // [a-zA-Z0-9_:]
  static final int LABEL_START = 4; // [a-zA-Z_]
  static final int LABEL_CHAR = 8; // [a-zA-Z0-9_]

  static {
    for (int c = 0; c < 256; c++) {
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      boolean digit = c >= '0' && c <= '9';
      int f = 0;
      if (letter || c == ':') {
        f |= NAME_START | NAME_CHAR;
      }
      if (digit) {
        f |= NAME_CHAR | LABEL_CHAR;
      }
      if (letter) {
        f |= LABEL_START | LABEL_CHAR;
      }
      CLASS[c] = (byte) f;
    }
  }

  private static final byte[] NAME_LABEL =
      Labels.METRIC_NAME.getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  final LineReader reader;
  final ParserOptions options;
  final SymbolTable symbols;
  final Numbers numbers = new Numbers();
  final boolean strict;

  // The current line: b[ls, le).
  byte[] b;
  int ls;
  int le;

  private Entry entry;
  private int entryLine;
  private ParseException sticky;

  // HELP / TYPE / UNIT / COMMENT
  int metaNameStart;
  int metaNameEnd;
  boolean metaNameEscaped;
  int textStart;
  int textEnd;
  boolean textEscaped;
  MetricType metaType;

  // SERIES
  int seriesStart;
  int seriesEnd;
  int nameStart;
  int nameEnd;
  boolean nameEscaped;
  final Spans labels = new Spans();
  double value;
  int valueStart;
  boolean hasTimestamp;
  long timestamp;
  boolean hasExemplar;
  final Spans exemplarLabels = new Spans();
  double exemplarValue;
  boolean exemplarHasTimestamp;
  long exemplarTimestamp;

  private byte[] scratch = new byte[128];
  private final LabelSetMaker seriesLabels = new LabelSetMaker();
  private final LabelSetMaker exemplarLabelSets = new LabelSetMaker();

  BaseParser(LineReader reader, ParserOptions options, SymbolTable symbols, boolean strict) {
    this.reader = reader;
    this.options = options;
    this.symbols = symbols;
    this.strict = strict;
  }

  /** Parses lines until one yields an entry; returns it, or EOF at the end. */
  abstract Entry advance() throws ParseException;

  @Override
  public final Entry next() throws ParseException {
    if (sticky != null) {
      throw sticky;
    }
    if (entry == Entry.EOF) {
      return Entry.EOF;
    }
    entry = null;
    try {
      Entry e = advance();
      current(e);
      return e;
    } catch (ParseException e) {
      entry = null;
      if (!e.isLineLocal()) {
        sticky = e;
      }
      throw e;
    } catch (RuntimeException e) { // a bug of ours must still surface as the parser's error
      sticky =
          new ParseException(
              ParseException.Reason.INTERNAL,
              Math.max(1, reader.lineNo),
              1,
              "internal parser error: " + e,
              false,
              e);
      throw sticky;
    }
  }

  /** Makes e the current entry (before the family rules read it through the accessors). */
  final void current(Entry e) {
    entry = e;
    entryLine = reader.lineNo;
  }

  /** Reads the next line into b/ls/le; false at the end of the page. */
  final boolean nextLine() throws ParseException {
    if (!reader.next()) {
      return false;
    }
    b = reader.buf;
    ls = reader.start;
    le = reader.end;
    return true;
  }

  // ---------------------------------------------------------------- errors

  final ParseException syntax(int pos, String detail) {
    return new ParseException(
        ParseException.Reason.SYNTAX, reader.lineNo, Utf8.column(b, ls, pos), detail, true, null);
  }

  final ParseException conformance(int pos, String detail) {
    return new ParseException(
        ParseException.Reason.CONFORMANCE,
        reader.lineNo,
        Utf8.column(b, ls, pos),
        detail,
        true,
        null);
  }

  /** A conformance error about an earlier line (a family or group checked after its end). */
  final ParseException conformanceAt(int line, String detail) {
    return new ParseException(ParseException.Reason.CONFORMANCE, line, 1, detail, true, null);
  }

  final ParseException limit(int pos, String detail) {
    return new ParseException(
        ParseException.Reason.LIMIT, reader.lineNo, Utf8.column(b, ls, pos), detail, true, null);
  }

  /** An error after the last line (e.g. a missing {@code # EOF}); never line-local. */
  final ParseException atEnd(ParseException.Reason reason, String detail) {
    return new ParseException(reason, reader.lineNo + 1, 1, detail, false, null);
  }

  final String quote(int from, int to) {
    return Messages.quote(b, from, to);
  }

  final String quoteToken(int from) {
    if (from >= le) {
      return "end of line";
    }
    return Messages.quote(b, from, Messages.tokenEnd(b, from, le));
  }

  final String quoteChar(int pos) {
    if (pos >= le) {
      return "end of line";
    }
    int e = pos + 1;
    while (e < le && (b[e] & 0xC0) == 0x80) {
      e++;
    }
    return Messages.quote(b, pos, e);
  }

  // ---------------------------------------------------------------- shared grammar

  static boolean is(int cls, byte c) {
    return (CLASS[c & 0xFF] & cls) != 0;
  }

  /** Scans an unquoted metric name at i (first byte already known to be a name start). */
  final int scanName(int i) {
    i++;
    while (i < le && (CLASS[b[i] & 0xFF] & NAME_CHAR) != 0) {
      i++;
    }
    return i;
  }

  /** Result flag of {@link #scanQuoted}: the string holds at least one escape. */
  boolean lastQuotedEscaped;

  /**
   * Scans a double-quoted string whose opening quote is at {@code i}; returns the index of the
   * closing quote. Checks UTF-8, and in strict text mode that escapes are only {@code \\ \" \n}.
   */
  final int scanQuoted(int i, String what, boolean strictEscapes) throws ParseException {
    int open = i;
    i++;
    int nonAscii = 0;
    boolean escaped = false;
    while (true) {
      // Skip eight plain ASCII bytes at a time: no quote, no backslash, no high bit.
      while (i + 8 <= le) {
        long w = (long) LONGS.get(b, i);
        long q = w ^ 0x2222222222222222L;
        long s = w ^ 0x5C5C5C5C5C5C5C5CL;
        long special = ((q - 0x0101010101010101L) & ~q) | ((s - 0x0101010101010101L) & ~s) | w;
        if ((special & 0x8080808080808080L) != 0) {
          break;
        }
        i += 8;
      }
      if (i >= le) {
        throw syntax(
            le,
            what
                + " "
                + quote(open + 1, le)
                + " is not terminated: the line ends inside the quotes");
      }
      byte c = b[i];
      if (c == '"') {
        break;
      }
      if (c == '\\') {
        escaped = true;
        if (i + 1 >= le) {
          i++; // the next turn reports the value as unterminated
          continue;
        }
        byte n = b[i + 1];
        if (strictEscapes && n != '\\' && n != '"' && n != 'n') {
          throw conformance(i, "invalid escape sequence " + quote(i, i + 2) + " in " + what);
        }
        i += 2;
        continue;
      }
      nonAscii |= c;
      i++;
    }
    if (nonAscii < 0) {
      int bad = Utf8.invalidAt(b, open + 1, i);
      if (bad >= 0) {
        throw syntax(bad, "invalid UTF-8 in " + what + " " + quote(open, i + 1));
      }
    }
    lastQuotedEscaped = escaped;
    return i;
  }

  /**
   * Parses the inside of label braces starting after '{' at {@code i}; returns the index after '}'.
   * With {@code allowName}, a quoted string standing alone is the metric name (text 1.0.0's {@code
   * {"my.metric", a="b"}}). Text allows blanks between tokens and a trailing comma; OpenMetrics
   * allows neither.
   */
  final int parseLabels(int i, Spans out, boolean allowName, boolean text, String what)
      throws ParseException {
    out.clear();
    boolean strictEscapes = text && strict;
    boolean first = true;
    while (true) {
      if (text) {
        i = skipBlanks(i);
      }
      if (i >= le) {
        throw syntax(i, what + " not closed: expected a label name or '}', got end of line");
      }
      byte c = b[i];
      if (c == '}' && (first || text)) {
        return i + 1;
      }
      int ns;
      int ne;
      int flag = 0;
      if (c == '"') {
        int close = scanQuoted(i, "label name", strictEscapes);
        ns = i + 1;
        ne = close;
        if (lastQuotedEscaped) {
          flag |= Spans.NAME_ESCAPED;
        }
        i = close + 1;
        int j = text ? skipBlanks(i) : i;
        if (allowName && j < le && (b[j] == ',' || b[j] == '}')) {
          if (nameStart >= 0) {
            throw syntax(ns - 1, "metric name given twice: " + quote(ns - 1, ne + 1));
          }
          nameStart = ns;
          nameEnd = ne;
          nameEscaped = lastQuotedEscaped;
          i = j + 1;
          if (b[j] == '}') {
            return i;
          }
          first = false;
          continue;
        }
        if (ne == ns) {
          throw syntax(ns - 1, "empty label name");
        }
      } else if (is(LABEL_START, c)) {
        ns = i;
        i++;
        while (i < le && (CLASS[b[i] & 0xFF] & LABEL_CHAR) != 0) {
          i++;
        }
        ne = i;
      } else {
        throw syntax(i, "expected a label name, got " + quoteChar(i));
      }
      if (ne - ns > options.maxLabelNameBytes()) {
        throw limit(
            ns,
            "label name "
                + quote(ns, ne)
                + " is longer than the limit of "
                + options.maxLabelNameBytes()
                + " bytes");
      }
      if (text) {
        i = skipBlanks(i);
      }
      if (i >= le || b[i] != '=') {
        throw syntax(i, "expected '=' after label name " + quote(ns, ne) + ", got " + quoteChar(i));
      }
      i++;
      if (text) {
        i = skipBlanks(i);
      }
      if (i >= le || b[i] != '"') {
        throw syntax(
            i, "expected a quoted value for label " + quote(ns, ne) + ", got " + quoteToken(i));
      }
      int close = scanQuoted(i, "label value", strictEscapes);
      int vs = i + 1;
      if (close - vs > options.maxLabelValueBytes()) {
        throw limit(
            vs,
            "value of label "
                + quote(ns, ne)
                + " is longer than the limit of "
                + options.maxLabelValueBytes()
                + " bytes");
      }
      if (lastQuotedEscaped) {
        flag |= Spans.VALUE_ESCAPED;
      }
      checkNewLabel(out, ns, ne, flag);
      if (out.count == options.maxLabels()) {
        throw limit(ns, "more labels than the limit of " + options.maxLabels());
      }
      out.add(ns, ne, vs, close, flag);
      i = close + 1;
      if (text) {
        i = skipBlanks(i);
      }
      if (i < le && b[i] == ',') {
        i++;
        first = false;
        if (!text && i < le && b[i] == '}') {
          throw syntax(i, "expected a label name after ',', got '}'");
        }
        continue;
      }
      if (i < le && b[i] == '}') {
        return i + 1;
      }
      throw syntax(
          i,
          "expected ',' or '}' after the value of label "
              + quote(ns, ne)
              + ", got "
              + quoteChar(i));
    }
  }

  /** Rejects {@code __name__} and a name already present. */
  private void checkNewLabel(Spans out, int ns, int ne, int flag) throws ParseException {
    if (rawEquals(ns, ne, NAME_LABEL)) {
      throw syntax(ns, "label name \"__name__\" is reserved: give the metric name instead");
    }
    for (int k = 0; k < out.count; k++) {
      int s = out.nameStart(k);
      int e = out.nameEnd(k);
      boolean same;
      if (((out.flags[k] | flag) & Spans.NAME_ESCAPED) != 0) {
        same =
            string(s, e, (out.flags[k] & Spans.NAME_ESCAPED) != 0, false)
                .equals(string(ns, ne, (flag & Spans.NAME_ESCAPED) != 0, false));
      } else {
        same = e - s == ne - ns && Arrays.equals(b, s, e, b, ns, ne);
      }
      if (same) {
        throw syntax(ns, "duplicate label name " + quote(ns, ne));
      }
    }
  }

  private boolean rawEquals(int s, int e, byte[] what) {
    return e - s == what.length && Arrays.equals(b, s, e, what, 0, what.length);
  }

  final int skipBlanks(int i) {
    while (i < le && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    return i;
  }

  // ---------------------------------------------------------------- Strings

  /**
   * The String for {@code b[s, e)}; unescapes {@code \\ \" \n} when {@code escaped} (only {@code \\
   * \n} for text-format HELP, {@code helpOnly}). Other escapes stay as written, as in Prometheus.
   */
  final String string(int s, int e, boolean escaped, boolean helpOnly) {
    if (!escaped) {
      return symbols.intern(b, s, e - s);
    }
    if (scratch.length < e - s) {
      scratch = new byte[Math.max(e - s, scratch.length * 2)];
    }
    int n = 0;
    for (int i = s; i < e; i++) {
      byte c = b[i];
      if (c == '\\' && i + 1 < e) {
        byte x = b[i + 1];
        if (x == '\\') {
          scratch[n++] = '\\';
          i++;
          continue;
        }
        if (x == 'n') {
          scratch[n++] = '\n';
          i++;
          continue;
        }
        if (x == '"' && !helpOnly) {
          scratch[n++] = '"';
          i++;
          continue;
        }
      }
      scratch[n++] = c;
    }
    return symbols.intern(scratch, 0, n);
  }

  /** The number of code points of {@code b[s, e)} once unescaped. */
  final int unescapedCodePoints(int s, int e, boolean escaped) {
    int n = Utf8.codePoints(b, s, e);
    if (escaped) {
      for (int i = s; i < e - 1; i++) {
        if (b[i] == '\\' && (b[i + 1] == '\\' || b[i + 1] == 'n' || b[i + 1] == '"')) {
          n--;
          i++;
        }
      }
    }
    return n;
  }

  // ---------------------------------------------------------------- accessors

  private void require(Entry expected) {
    if (entry != expected) {
      throw new IllegalStateException(
          "the current entry is " + entry + ", this accessor belongs to " + expected);
    }
  }

  private void requireMeta() {
    if (entry != Entry.HELP && entry != Entry.TYPE && entry != Entry.UNIT) {
      throw new IllegalStateException(
          "the current entry is " + entry + ", familyName() belongs to HELP, TYPE and UNIT");
    }
  }

  /** The current entry, for the family rules. */
  final Entry entry() {
    return entry;
  }

  @Override
  public int line() {
    return entryLine;
  }

  @Override
  public String familyName() {
    requireMeta();
    return string(metaNameStart, metaNameEnd, metaNameEscaped, false);
  }

  @Override
  public String help() {
    require(Entry.HELP);
    return string(textStart, textEnd, textEscaped, format() == Format.TEXT);
  }

  @Override
  public long metadataHash() {
    requireMeta();
    long name = hash(b, metaNameStart, metaNameEnd);
    return hash(b, textStart, textEnd) * 31 + name + entry.ordinal();
  }

  @Override
  public MetricType type() {
    require(Entry.TYPE);
    return metaType;
  }

  @Override
  public String unit() {
    require(Entry.UNIT);
    return string(textStart, textEnd, false, false);
  }

  @Override
  public String comment() {
    require(Entry.COMMENT);
    return string(textStart, textEnd, false, false);
  }

  @Override
  public byte[] seriesBuffer() {
    require(Entry.SERIES);
    return b;
  }

  @Override
  public int seriesOffset() {
    require(Entry.SERIES);
    return seriesStart;
  }

  @Override
  public int seriesLength() {
    require(Entry.SERIES);
    return seriesEnd - seriesStart;
  }

  @Override
  public long seriesHash() {
    require(Entry.SERIES);
    return hash(b, seriesStart, seriesEnd);
  }

  static long hash(byte[] b, int from, int to) {
    long h = 0x9E3779B97F4A7C15L ^ (to - from);
    int i = from;
    for (; i + 8 <= to; i += 8) {
      h =
          Long.rotateLeft(h ^ ((long) LONGS.get(b, i) * 0xC2B2AE3D27D4EB4FL), 31)
              * 0x9E3779B185EBCA87L;
    }
    for (; i < to; i++) {
      h = Long.rotateLeft(h ^ ((b[i] & 0xFFL) * 0x165667B19E3779F9L), 23) * 0x9E3779B185EBCA87L;
    }
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    return h ^ (h >>> 33);
  }

  @Override
  public String metricName() {
    require(Entry.SERIES);
    return string(nameStart, nameEnd, nameEscaped, false);
  }

  @Override
  public int labelCount() {
    require(Entry.SERIES);
    return labels.count;
  }

  @Override
  public String labelName(int i) {
    require(Entry.SERIES);
    checkIndex(i);
    return string(
        labels.nameStart(i), labels.nameEnd(i), (labels.flags[i] & Spans.NAME_ESCAPED) != 0, false);
  }

  @Override
  public String labelValue(int i) {
    require(Entry.SERIES);
    checkIndex(i);
    return string(
        labels.valueStart(i),
        labels.valueEnd(i),
        (labels.flags[i] & Spans.VALUE_ESCAPED) != 0,
        false);
  }

  private void checkIndex(int i) {
    if (i < 0 || i >= labels.count) {
      throw new IndexOutOfBoundsException("label index " + i + " of " + labels.count);
    }
  }

  @Override
  public Labels labels() {
    require(Entry.SERIES);
    return build(labels, metricName(), seriesLabels);
  }

  private Labels build(Spans spans, String name, LabelSetMaker maker) {
    maker.start(spans.count + 1);
    if (name != null) {
      maker.add(Labels.METRIC_NAME, name);
    }
    for (int i = 0; i < spans.count; i++) {
      if (spans.valueStart(i) == spans.valueEnd(i)) {
        continue; // an empty value is an absent label
      }
      String ln =
          string(
              spans.nameStart(i),
              spans.nameEnd(i),
              (spans.flags[i] & Spans.NAME_ESCAPED) != 0,
              false);
      String lv =
          string(
              spans.valueStart(i),
              spans.valueEnd(i),
              (spans.flags[i] & Spans.VALUE_ESCAPED) != 0,
              false);
      maker.add(ln, lv);
    }
    return maker.make();
  }

  @Override
  public double value() {
    require(Entry.SERIES);
    return value;
  }

  @Override
  public boolean hasTimestamp() {
    require(Entry.SERIES);
    return hasTimestamp;
  }

  @Override
  public long timestamp() {
    require(Entry.SERIES);
    return hasTimestamp ? timestamp : 0;
  }

  @Override
  public Optional<Exemplar> exemplar() {
    require(Entry.SERIES);
    if (!hasExemplar) {
      return Optional.empty();
    }
    return Optional.of(
        new Exemplar(
            build(exemplarLabels, null, exemplarLabelSets),
            exemplarValue,
            exemplarHasTimestamp,
            exemplarHasTimestamp ? exemplarTimestamp : 0));
  }
}
