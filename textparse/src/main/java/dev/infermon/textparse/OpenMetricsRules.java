package dev.infermon.textparse;

import dev.infermon.model.metadata.MetricType;
import dev.infermon.model.util.LongSet;
import java.util.HashSet;
import java.util.Set;

/**
 * The OpenMetrics 1.0 family rules ({@link Conformance#STRICT}), checked as the lines stream by.
 * They follow the specification as its reference parser (client_python's {@code
 * openmetrics/parser.py}) enforces it; the conformance suite's 167 bad cases are the test. A sample
 * whose name is not an allowed name of the current family starts a new family of type unknown named
 * after it, as in the reference parser.
 */
final class OpenMetricsRules extends FamilyRules {
  private static final int NONE = 0;
  private static final int TOTAL = 1;
  private static final int CREATED = 2;
  private static final int COUNT = 3;
  private static final int SUM = 4;
  private static final int BUCKET = 5;
  private static final int GCOUNT = 6;
  private static final int GSUM = 7;
  private static final int INFO = 8;
  private static final int OTHER = 9;
  private static final String[] SUFFIXES = {
    "", "_total", "_created", "_count", "_sum", "_bucket", "_gcount", "_gsum", "_info"
  };
  private static final int MAX_EXEMPLAR_CODE_POINTS = 128;

  private final Set<String> seenNames = new HashSet<>();
  private final LongSet seenGroups = new LongSet();

  private String family;
  private int familyLine;
  private MetricType type;
  private boolean typed;
  private boolean hasHelp;
  private boolean hasUnit;
  private boolean unitSet; // a non-empty unit
  private boolean sawSamples;

  private boolean hasGroup;
  private long group;
  private boolean groupHasTimestamp;
  private long groupTimestamp;

  OpenMetricsRules(BaseParser p) {
    super(p);
  }

  void metadata(Entry kind) throws ParseException {
    String name = p.familyName();
    if (name.equals(family)) {
      if (sawSamples) {
        throw p.conformance(p.ls, kind + " line for " + q(name) + " after its samples");
      }
    } else {
      endFamily();
      startFamily(name, MetricType.UNKNOWN, false);
    }
    switch (kind) {
      case HELP:
        if (hasHelp) {
          throw p.conformance(p.ls, "second HELP line for " + q(name));
        }
        hasHelp = true;
        break;
      case TYPE:
        if (typed) {
          throw p.conformance(p.ls, "second TYPE line for " + q(name));
        }
        typed = true;
        type = p.type();
        break;
      default:
        if (hasUnit) {
          throw p.conformance(p.ls, "second UNIT line for " + q(name));
        }
        hasUnit = true;
        unitSet = p.textEnd > p.textStart;
    }
    if (unitSet && (type == MetricType.INFO || type == MetricType.STATESET)) {
      throw p.conformance(p.ls, type.exposedName() + " family " + q(name) + " cannot have a unit");
    }
  }

  void sample() throws ParseException {
    String name = p.metricName();
    int suffix = family == null ? OTHER : suffixOf(name);
    if (!allowed(suffix)) {
      endFamily();
      startFamily(name, MetricType.UNKNOWN, true);
      suffix = NONE;
    }
    sawSamples = true;
    double v = p.value;
    int skip = -1;
    if (type == MetricType.STATESET) {
      skip = label(family);
      if (skip < 0) {
        throw p.conformance(p.ls, "stateset sample has no label named " + q(family));
      }
      if (v != 0 && v != 1) {
        throw p.conformance(p.valueStart, "stateset values are 0 or 1, got " + num(v));
      }
    } else if (type == MetricType.INFO && v != 1) {
      throw p.conformance(p.valueStart, "info values are 1, got " + num(v));
    }
    double le = 0;
    if (suffix == BUCKET) {
      skip = label(LE);
      le = bucketBound(skip);
      if (!isInteger(v)) {
        throw p.conformance(p.valueStart, "bucket values are integers, got " + num(v));
      }
    } else if ((suffix == COUNT || suffix == GCOUNT) && !isInteger(v)) {
      throw p.conformance(p.valueStart, "count values are integers, got " + num(v));
    } else if (type == MetricType.SUMMARY && suffix == NONE) {
      skip = quantile();
      if (v < 0) {
        throw p.conformance(p.valueStart, "quantile values cannot be negative, got " + num(v));
      }
    }
    if (suffix >= TOTAL && suffix <= GSUM && suffix != CREATED) {
      if (Double.isNaN(v)) {
        throw p.conformance(p.valueStart, SUFFIXES[suffix] + " values cannot be NaN");
      }
      if (v < 0 && suffix != GSUM) {
        throw p.conformance(
            p.valueStart, SUFFIXES[suffix] + " values cannot be negative, got " + num(v));
      }
    }
    long g = type == MetricType.INFO ? 0 : groupKey(skip);
    checkGrouping(g);
    if (p.hasExemplar) {
      checkExemplar(suffix);
    }
    if ((type == MetricType.HISTOGRAM || type == MetricType.GAUGEHISTOGRAM) && suffix != NONE) {
      histogramSample(suffix, g, le, v);
    }
  }

  private double bucketBound(int le) throws ParseException {
    if (le < 0) {
      throw p.conformance(p.ls, "bucket has no le label");
    }
    if (!labelNumber(le) || Double.isNaN(p.numbers.value)) {
      throw p.conformance(labelColumnPos(le), "invalid le label value " + labelText(le));
    }
    double bound = p.numbers.value;
    if (bound == Double.POSITIVE_INFINITY && !labelText(le).equals("\"+Inf\"")) {
      throw p.conformance(
          labelColumnPos(le), "le label value " + labelText(le) + " must be written \"+Inf\"");
    }
    return bound;
  }

  private int quantile() throws ParseException {
    int qi = label(QUANTILE);
    if (qi < 0) {
      throw p.conformance(p.ls, "summary quantile sample has no quantile label");
    }
    if (!labelNumber(qi) || !(p.numbers.value >= 0 && p.numbers.value <= 1)) {
      throw p.conformance(
          labelColumnPos(qi), "quantile label value " + labelText(qi) + " is not between 0 and 1");
    }
    return qi;
  }

  private void checkGrouping(long g) throws ParseException {
    boolean ts = p.hasTimestamp;
    if (hasGroup && g != group && seenGroups.contains(g)) {
      throw p.conformance(
          p.ls, "samples of one group must be together, but this label set appeared before");
    }
    if (hasGroup && g == group) {
      if (ts != groupHasTimestamp) {
        throw p.conformance(p.ls, "a group mixes samples with and without timestamps");
      }
      if (ts && p.timestamp < groupTimestamp && type != MetricType.INFO) {
        throw p.conformance(p.ls, "timestamps went backwards within a group");
      }
    }
    hasGroup = true;
    group = g;
    groupHasTimestamp = ts;
    groupTimestamp = p.timestamp;
    seenGroups.add(g);
  }

  private void checkExemplar(int suffix) throws ParseException {
    boolean ok =
        ((type == MetricType.HISTOGRAM || type == MetricType.GAUGEHISTOGRAM) && suffix == BUCKET)
            || (type == MetricType.COUNTER && suffix == TOTAL);
    if (!ok) {
      throw p.conformance(p.ls, "only histogram buckets and counter totals can have exemplars");
    }
    Spans s = p.exemplarLabels;
    int n = 0;
    for (int i = 0; i < s.count; i++) {
      n +=
          p.unescapedCodePoints(
              s.nameStart(i), s.nameEnd(i), (s.flags[i] & Spans.NAME_ESCAPED) != 0);
      n +=
          p.unescapedCodePoints(
              s.valueStart(i), s.valueEnd(i), (s.flags[i] & Spans.VALUE_ESCAPED) != 0);
    }
    if (n > MAX_EXEMPLAR_CODE_POINTS) {
      throw p.conformance(
          p.ls,
          "exemplar labels have "
              + n
              + " characters, more than the "
              + MAX_EXEMPLAR_CODE_POINTS
              + " allowed");
    }
  }

  private void histogramSample(int suffix, long g, double le, double v) throws ParseException {
    HistogramGroup h = histogram;
    if (!h.sameGroup(g, p.hasTimestamp, p.timestamp)) {
      closeHistogram();
      h.start(g, p.hasTimestamp, p.timestamp);
    }
    int line = p.reader.lineNo;
    String problem = null;
    switch (suffix) {
      case BUCKET:
        problem = h.bucket(le, v, line);
        break;
      case COUNT:
      case GCOUNT:
        h.count(v, line);
        break;
      case SUM:
        h.sum(false, v, line);
        break;
      case GSUM:
        h.sum(true, v, line);
        break;
      default:
        h.other(line);
    }
    if (problem != null) {
      throw p.conformance(p.ls, "histogram " + q(family) + ": " + problem);
    }
  }

  private void closeHistogram() throws ParseException {
    if (histogram.active) {
      int line = histogram.lastLine;
      String problem = histogram.close(true);
      if (problem != null) {
        throw p.conformanceAt(line, "histogram " + q(family) + ": " + problem);
      }
    }
  }

  void end() throws ParseException {
    endFamily();
  }

  private void endFamily() throws ParseException {
    if (family == null) {
      return;
    }
    closeHistogram();
    for (int s = NONE; s <= INFO; s++) {
      if (s == NONE || allowedForType(s)) {
        String n = family + SUFFIXES[s];
        if (!seenNames.add(n)) {
          throw p.conformanceAt(
              familyLine,
              "name " + q(n) + " of family " + q(family) + " clashes with an earlier family");
        }
      }
    }
    family = null;
  }

  private void startFamily(String name, MetricType t, boolean fromSample) {
    family = name;
    familyLine = p.reader.lineNo;
    type = t;
    typed = fromSample;
    hasHelp = false;
    hasUnit = false;
    unitSet = false;
    sawSamples = false;
    hasGroup = false;
    seenGroups.clear();
    histogram.active = false;
  }

  private int suffixOf(String name) {
    int fl = family.length();
    if (!name.startsWith(family)) {
      return OTHER;
    }
    int rest = name.length() - fl;
    if (rest == 0) {
      return NONE;
    }
    for (int s = TOTAL; s <= INFO; s++) {
      String suf = SUFFIXES[s];
      if (suf.length() == rest && name.regionMatches(fl, suf, 0, rest)) {
        return s;
      }
    }
    return OTHER;
  }

  private boolean allowed(int suffix) {
    return suffix != OTHER && (suffix == NONE ? noneAllowed() : allowedForType(suffix));
  }

  private boolean noneAllowed() {
    switch (type) {
      case COUNTER:
      case HISTOGRAM:
      case GAUGEHISTOGRAM:
      case INFO:
        return false;
      default:
        return true;
    }
  }

  private boolean allowedForType(int s) {
    switch (type) {
      case COUNTER:
        return s == TOTAL || s == CREATED;
      case SUMMARY:
        return s == COUNT || s == SUM || s == CREATED;
      case HISTOGRAM:
        return s == COUNT || s == SUM || s == BUCKET || s == CREATED;
      case GAUGEHISTOGRAM:
        return s == GCOUNT || s == GSUM || s == BUCKET;
      case INFO:
        return s == INFO;
      default:
        return false;
    }
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "NaN" : Double.toString(v);
  }
}
