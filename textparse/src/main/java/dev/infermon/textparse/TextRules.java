package dev.infermon.textparse;

import dev.infermon.model.metadata.MetricType;
import java.util.HashSet;
import java.util.Set;

/**
 * The text format's family rules ({@link Conformance#STRICT}), as its documentation states them and
 * {@code promtool check metrics} (prometheus/common's {@code expfmt}) enforces them: one HELP and
 * one TYPE per family, TYPE before the family's samples, histogram buckets with a numeric {@code
 * le} in increasing order ending at {@code +Inf} equal to {@code _count}, summary quantiles with a
 * numeric {@code quantile}. A family's samples are {@code name} itself, plus {@code _bucket},
 * {@code _sum}, {@code _count} for a histogram and {@code _sum}, {@code _count} for a summary.
 */
final class TextRules extends FamilyRules {
  private final Set<String> helped = new HashSet<>();
  private final Set<String> typed = new HashSet<>();
  private final Set<String> sampled = new HashSet<>();

  private String family;
  private MetricType type = MetricType.UNKNOWN;

  TextRules(BaseParser p) {
    super(p);
  }

  void metadata(Entry kind) throws ParseException {
    String name = p.familyName();
    if (kind == Entry.HELP) {
      if (!helped.add(name)) {
        throw p.conformance(p.ls, "second HELP line for " + q(name));
      }
    } else {
      if (!typed.add(name)) {
        throw p.conformance(p.ls, "second TYPE line for " + q(name));
      }
      if (sampled.contains(name)) {
        throw p.conformance(p.ls, "TYPE line for " + q(name) + " after its samples");
      }
    }
    if (!name.equals(family)) {
      endFamily();
      family = name;
      type = MetricType.UNKNOWN;
    }
    if (kind == Entry.TYPE) {
      type = p.type();
    }
  }

  void sample() throws ParseException {
    String name = p.metricName();
    int suffix = family == null ? -1 : suffixOf(name);
    if (suffix < 0) {
      endFamily();
      family = name;
      type = MetricType.UNKNOWN;
      suffix = 0;
    }
    sampled.add(family);
    if (type == MetricType.SUMMARY && suffix == 0) {
      int qi = label(QUANTILE);
      if (qi < 0) {
        throw p.conformance(p.ls, "summary sample " + q(name) + " has no quantile label");
      }
      if (!labelNumber(qi)) {
        throw p.conformance(labelColumnPos(qi), "invalid quantile label value " + labelText(qi));
      }
      return;
    }
    if (type != MetricType.HISTOGRAM) {
      return;
    }
    int skip = -1;
    double le = 0;
    if (suffix == 1) {
      skip = label(LE);
      if (skip < 0) {
        throw p.conformance(p.ls, "histogram bucket " + q(name) + " has no le label");
      }
      if (!labelNumber(skip) || Double.isNaN(p.numbers.value)) {
        throw p.conformance(labelColumnPos(skip), "invalid le label value " + labelText(skip));
      }
      le = p.numbers.value;
    }
    long g = groupKey(skip);
    if (!histogram.sameGroup(g, false, 0)) {
      closeHistogram();
      histogram.start(g, false, 0);
    }
    int line = p.reader.lineNo;
    if (suffix == 1) {
      String problem = histogram.bucket(le, p.value, line);
      if (problem != null) {
        throw p.conformance(p.ls, "histogram " + q(family) + ": " + problem);
      }
    } else if (suffix == 3) {
      histogram.count(p.value, line);
    } else {
      histogram.other(line);
    }
  }

  void end() throws ParseException {
    endFamily();
  }

  private void endFamily() throws ParseException {
    closeHistogram();
    family = null;
  }

  private void closeHistogram() throws ParseException {
    if (histogram.active) {
      int line = histogram.lastLine;
      String problem = histogram.close(false);
      if (problem != null) {
        throw p.conformanceAt(line, "histogram " + q(family) + ": " + problem);
      }
    }
  }

  /** 0: the family name; 1: _bucket; 2: _sum; 3: _count; -1: another family. */
  private int suffixOf(String name) {
    if (name.equals(family)) {
      return 0;
    }
    if (type != MetricType.HISTOGRAM && type != MetricType.SUMMARY) {
      return -1;
    }
    if (!name.startsWith(family)) {
      return -1;
    }
    int fl = family.length();
    int rest = name.length() - fl;
    if (type == MetricType.HISTOGRAM && rest == 7 && name.regionMatches(fl, "_bucket", 0, 7)) {
      return 1;
    }
    if (rest == 4 && name.regionMatches(fl, "_sum", 0, 4)) {
      return 2;
    }
    if (rest == 6 && name.regionMatches(fl, "_count", 0, 6)) {
      return 3;
    }
    return -1;
  }
}
