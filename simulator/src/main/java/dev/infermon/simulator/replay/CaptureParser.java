package dev.infermon.simulator.replay;

import dev.infermon.model.labels.Labels;
import dev.infermon.textparse.Conformance;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.Format;
import dev.infermon.textparse.ParseException;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Turns a page into a {@link Capture}: textparse says which line is what (and where the page stops
 * being valid); the raw lines give the value text, timestamp and exemplar of each sample, so
 * nothing is re-parsed by hand beyond splitting a line textparse already accepted.
 */
final class CaptureParser {
  /** Lenient in both formats: what a scraper accepts (Ray repeats families). */
  private static final ParserOptions OPTIONS =
      ParserOptions.builder().conformance(Conformance.LENIENT).build();

  private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

  private final String name;
  private final byte[] page;
  private final List<String> raw = new ArrayList<>();
  private boolean endsWithNewline;
  private SampleLine[] lines;
  private boolean[] metadata;
  private final SampleKinds kinds = new SampleKinds();
  private String engine;

  /**
   * A parsed sample line.
   *
   * @param prefix the series as written and a space
   * @param literal the value as written
   * @param value the value
   * @param kind what it does over time
   * @param suffix what follows the value, without the timestamp, and the newline
   * @param family for a {@code _count} or {@code _sum}: its series' labels under the family name,
   *     which pairs them; else null
   * @param metric the sample's name
   * @param rateKey for a counter whose rate a gauge states, and for that gauge: the key that pairs
   *     them ({@link StatedRates#key}); else null
   */
  private record SampleLine(
      String prefix,
      String literal,
      double value,
      SampleKinds.Kind kind,
      String suffix,
      Labels family,
      String metric,
      Labels rateKey) {
    boolean advances() {
      return kind != SampleKinds.Kind.FIXED && Double.isFinite(value) && value >= 0;
    }

    boolean isCount() {
      return family != null && kind == SampleKinds.Kind.COUNT;
    }
  }

  private CaptureParser(String name, byte[] page) {
    this.name = name;
    this.page = page;
  }

  static Capture parse(String name, byte[] page) throws CaptureException {
    return new CaptureParser(name, page).run();
  }

  private Capture run() throws CaptureException {
    Format format = Parsers.sniff(page, page.length);
    splitLines();
    lines = new SampleLine[raw.size() + 2];
    metadata = new boolean[raw.size() + 2];
    int lastSample = 0;
    int cutFrom = 0;
    Parser p = Parsers.forFormat(format, OPTIONS).parse(page);
    try {
      for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
        int ln = p.line();
        if (e == Entry.SERIES) {
          lines[ln] = sample(p, ln);
          lastSample = ln;
        } else {
          if (e == Entry.TYPE) {
            kinds.type(p.familyName(), p.type());
          }
          metadata[ln] = true;
        }
      }
    } catch (ParseException ex) {
      if (!cutAtEnd(ex.line())) {
        throw new CaptureException(name, ex.line(), ex.column(), ex.detail());
      }
      cutFrom = ex.line();
    }
    List<Integer> dropped = new ArrayList<>();
    int end = cutFrom > 0 ? Math.min(cutFrom, raw.size() + 1) : raw.size() + 1;
    if (excerpt()) {
      // an excerpt's trailing HELP/TYPE describe a family cut before its first sample
      while (end - 1 > lastSample && (metadata[end - 1] || raw.get(end - 2).isBlank())) {
        end--;
      }
    }
    for (int ln = end; ln <= raw.size(); ln++) {
      if (!raw.get(ln - 1).isBlank()) {
        dropped.add(ln);
      }
    }
    return build(format, end, dropped);
  }

  private Capture build(Format format, int end, List<Integer> dropped) {
    boolean om = format == Format.OPENMETRICS;
    Map<Labels, Double> counts = new HashMap<>();
    Map<Labels, Double> statedRates = new HashMap<>();
    for (int ln = 1; ln < end; ln++) {
      SampleLine s = lines[ln];
      if (s != null && s.isCount()) {
        counts.put(s.family(), s.value());
      }
      if (s != null && s.rateKey() != null && StatedRates.statesRate(s.metric())) {
        if (Double.isFinite(s.value()) && s.value() >= 0) {
          statedRates.put(s.rateKey(), StatedRates.perSecond(s.metric(), s.value()));
        }
      }
    }
    List<Capture.Chunk> chunks = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    int samples = 0;
    int advancing = 0;
    boolean eof = false;
    for (int ln = 1; ln < end; ln++) {
      SampleLine s = lines[ln];
      if (s == null) {
        String line = raw.get(ln - 1);
        eof |= om && line.equals("# EOF");
        text.append(line).append('\n');
        continue;
      }
      samples++;
      if (!s.advances()) {
        text.append(s.prefix()).append(s.literal()).append(s.suffix());
        continue;
      }
      advancing++;
      if (text.length() > 0) {
        chunks.add(new Capture.Text(text.toString()));
        text.setLength(0);
      }
      chunks.add(advancing(s, om, counts, statedRates));
    }
    if (om && !eof) {
      text.append("# EOF\n");
    }
    if (text.length() > 0) {
      chunks.add(new Capture.Text(text.toString()));
    }
    return new Capture(
        name,
        format,
        chunks,
        samples,
        advancing,
        dropped,
        engine == null ? "" : engine,
        page.length + 64);
  }

  /**
   * An advancing line: a counter captured as an integer stays one; OpenMetrics counts stay whole
   * numbers, as that format requires, and their sums follow them so the mean stays exact; text
   * counts grow by the factor itself, which keeps every bucket's share exact. A counter whose rate
   * a gauge on the page states grows at that rate.
   */
  private static Capture.Advancing advancing(
      SampleLine s, boolean om, Map<Labels, Double> counts, Map<Labels, Double> statedRates) {
    boolean integers = INTEGER.matcher(s.literal()).matches();
    boolean floor =
        (integers && s.kind() == SampleKinds.Kind.COUNTER)
            || (om && s.kind() == SampleKinds.Kind.COUNT);
    double count = Double.NaN;
    if (om && s.kind() == SampleKinds.Kind.SUM && s.family() != null) {
      count = counts.getOrDefault(s.family(), Double.NaN);
    }
    double perSecond = Double.NaN;
    if (s.rateKey() != null && s.kind() == SampleKinds.Kind.COUNTER) {
      perSecond = statedRates.getOrDefault(s.rateKey(), Double.NaN);
    }
    return new Capture.Advancing(
        s.prefix(), s.literal(), s.value(), integers, floor, count, perSecond, s.suffix());
  }

  /** One sample line: its series as written, value text, and exemplar; the timestamp dropped. */
  private SampleLine sample(Parser p, int ln) throws CaptureException {
    String series =
        new String(p.seriesBuffer(), p.seriesOffset(), p.seriesLength(), StandardCharsets.UTF_8);
    String line = raw.get(ln - 1);
    int at = line.indexOf(series);
    if (at < 0) {
      throw new CaptureException(name, ln, 1, "cannot find the series textparse read");
    }
    String rest = line.substring(at + series.length());
    int i = skipBlanks(rest, 0);
    int j = tokenEnd(rest, i);
    String literal = rest.substring(i, j);
    i = skipBlanks(rest, j);
    if (i < rest.length() && rest.charAt(i) != '#') {
      i = skipBlanks(rest, tokenEnd(rest, i)); // the timestamp
    }
    String suffix = (i < rest.length() ? " " + rest.substring(i) : "") + "\n";
    String metric = p.metricName();
    if (engine == null) {
      engine = SampleKinds.engineOf(metric);
    }
    SampleKinds.Kind kind = kinds.kind(metric);
    Labels family = null;
    if (metric.endsWith("_count") || metric.endsWith("_sum")) {
      String base = metric.substring(0, metric.lastIndexOf('_'));
      family = p.labels().toBuilder().set("__name__", base).build();
    }
    Labels rateKey = StatedRates.key(metric, p.labels());
    return new SampleLine(series + " ", literal, p.value(), kind, suffix, family, metric, rateKey);
  }

  /**
   * Whether a parse error at line {@code ln} is a cut end: the error is on the last non-blank line
   * (or past it) and the page lacks a final newline or is marked as an excerpt.
   */
  private boolean cutAtEnd(int ln) {
    int last = raw.size();
    while (last > 0 && raw.get(last - 1).isBlank()) {
      last--;
    }
    return ln >= last && (!endsWithNewline || excerpt());
  }

  private boolean excerpt() {
    String n = name.toUpperCase(Locale.ROOT);
    return n.contains("TRUNCATED") || n.contains("EXCERPT");
  }

  private void splitLines() {
    String text = new String(page, StandardCharsets.UTF_8);
    int from = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        raw.add(text.substring(from, i));
        from = i + 1;
      }
    }
    endsWithNewline = from == text.length();
    if (!endsWithNewline) {
      raw.add(text.substring(from));
    }
  }

  private static int skipBlanks(String s, int i) {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static int tokenEnd(String s, int i) {
    while (i < s.length() && s.charAt(i) != ' ' && s.charAt(i) != '\t') {
      i++;
    }
    return i;
  }
}
