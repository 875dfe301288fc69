package dev.infermon.simulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small strict reader of text format 0.0.4 for tests: it rejects what a Prometheus scrape would
 * reject (bad names, bad escapes, unparsable values, duplicate series, samples outside their
 * family, broken histograms) and extracts the page's shape: each family's type, HELP, label names
 * and bucket bounds. Lenient mode accepts the excerpts in the fixtures (samples before the first
 * TYPE, no trailing newline).
 */
final class PageChecker {
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?");

  /** One sample line. */
  record Sample(String name, List<String[]> labels, double value) {
    String label(String key) {
      for (String[] l : labels) {
        if (l[0].equals(key)) {
          return l[1];
        }
      }
      return null;
    }

    List<String> labelNames() {
      List<String> out = new ArrayList<>();
      for (String[] l : labels) {
        out.add(l[0]);
      }
      return out;
    }

    /** The labels without {@code le}, as one key. */
    String seriesKey() {
      StringBuilder sb = new StringBuilder();
      for (String[] l : labels) {
        if (!l[0].equals("le")) {
          sb.append(l[0]).append('=').append(l[1]).append(',');
        }
      }
      return sb.toString();
    }
  }

  /** One family: HELP, TYPE and its samples. */
  static final class Family {
    final String name;
    String help;
    String type = "untyped";
    final List<Sample> samples = new ArrayList<>();

    Family(String name) {
      this.name = name;
    }

    /** Label names over all samples, without {@code le}, in first-seen order. */
    Set<String> labelNames() {
      Set<String> out = new LinkedHashSet<>();
      for (Sample s : samples) {
        for (String n : s.labelNames()) {
          if (!n.equals("le")) {
            out.add(n);
          }
        }
      }
      return out;
    }

    /** The {@code le} values of the first histogram child, in order. */
    List<String> buckets() {
      List<String> out = new ArrayList<>();
      String first = null;
      for (Sample s : samples) {
        if (s.name.equals(name + "_bucket")) {
          if (first == null) {
            first = s.seriesKey();
          }
          if (s.seriesKey().equals(first)) {
            out.add(s.label("le"));
          }
        }
      }
      return out;
    }
  }

  /** A parsed page. */
  static final class Page {
    final Map<String, Family> families = new LinkedHashMap<>();

    Family family(String name) {
      Family f = families.get(name);
      if (f == null) {
        throw new AssertionError("no family " + name + " in page; have " + families.keySet());
      }
      return f;
    }

    /** The value of the one sample with this name whose labels include all of {@code match}. */
    double value(String sampleName, String... match) {
      Double found = null;
      for (Family f : families.values()) {
        for (Sample s : f.samples) {
          if (!s.name.equals(sampleName)) {
            continue;
          }
          boolean ok = true;
          for (int i = 0; i < match.length; i += 2) {
            ok &= match[i + 1].equals(s.label(match[i]));
          }
          if (ok) {
            if (found != null) {
              throw new AssertionError("several samples match " + sampleName);
            }
            found = s.value;
          }
        }
      }
      if (found == null) {
        throw new AssertionError("no sample " + sampleName + " matching " + List.of(match));
      }
      return found;
    }

    /**
     * The sum of the samples with this name whose labels include all of {@code match}; 0 if none.
     */
    double sum(String sampleName, String... match) {
      double n = 0;
      for (Sample s : samples()) {
        boolean ok = s.name.equals(sampleName);
        for (int i = 0; i < match.length; i += 2) {
          ok &= match[i + 1].equals(s.label(match[i]));
        }
        if (ok) {
          n += s.value;
        }
      }
      return n;
    }

    /** Every sample, with the family type it belongs to. */
    List<Sample> samples() {
      List<Sample> out = new ArrayList<>();
      for (Family f : families.values()) {
        out.addAll(f.samples);
      }
      return out;
    }
  }

  private PageChecker() {}

  static Page strict(String text) {
    return parse(text, false);
  }

  static Page lenient(String text) {
    return parse(text, true);
  }

  private static Page parse(String text, boolean lenient) {
    if (!lenient && !text.isEmpty() && !text.endsWith("\n")) {
      throw new AssertionError("page does not end with a newline");
    }
    Page page = new Page();
    Family current = null;
    Set<String> seen = new LinkedHashSet<>();
    String[] lines = text.split("\n", -1);
    for (int n = 0; n < lines.length; n++) {
      String line = lines[n];
      String where = "line " + (n + 1) + ": " + line;
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
        int sp = line.indexOf(' ', 7);
        if (sp < 0) {
          if (lenient) {
            continue; // an excerpt cut inside a HELP line
          }
          throw new AssertionError("metadata without text, " + where);
        }
        String name = line.substring(7, sp);
        check(NAME.matcher(name).matches(), "bad family name, " + where);
        Family f = page.families.get(name);
        if (f == null) {
          f = new Family(name);
          page.families.put(name, f);
        } else if (f != current) {
          throw new AssertionError("family " + name + " appears twice, " + where);
        }
        current = f;
        String rest = line.substring(sp + 1);
        if (line.startsWith("# HELP ")) {
          check(f.help == null, "second HELP, " + where);
          f.help = rest;
        } else {
          check(f.type.equals("untyped") && f.samples.isEmpty(), "TYPE after samples, " + where);
          check(
              Set.of("counter", "gauge", "histogram", "summary", "untyped").contains(rest),
              "bad type, " + where);
          f.type = rest;
        }
        continue;
      }
      if (line.startsWith("#")) {
        continue;
      }
      Sample s;
      try {
        s = sample(line, where);
      } catch (RuntimeException | AssertionError e) {
        if (lenient && n >= lines.length - 2) {
          continue; // an excerpt cut inside its last sample
        }
        throw e instanceof AssertionError ? (AssertionError) e : new AssertionError(where, e);
      }
      if (current == null || !belongs(current, s.name)) {
        if (lenient) {
          continue;
        }
        throw new AssertionError("sample outside its family, " + where);
      }
      String key = s.name + "{" + String.join(",", flatten(s.labels)) + "}";
      check(seen.add(key), "duplicate series, " + where);
      current.samples.add(s);
    }
    for (Family f : page.families.values()) {
      if (f.type.equals("histogram")) {
        checkHistogram(f, lenient);
      }
    }
    return page;
  }

  private static boolean belongs(Family f, String sample) {
    switch (f.type) {
      case "histogram":
        return sample.equals(f.name + "_bucket")
            || sample.equals(f.name + "_count")
            || sample.equals(f.name + "_sum");
      case "summary":
        return sample.equals(f.name)
            || sample.equals(f.name + "_count")
            || sample.equals(f.name + "_sum");
      default:
        return sample.equals(f.name);
    }
  }

  private static void checkHistogram(Family f, boolean lenient) {
    Map<String, List<Sample>> buckets = new LinkedHashMap<>();
    Map<String, Double> counts = new LinkedHashMap<>();
    for (Sample s : f.samples) {
      if (s.name.endsWith("_bucket")) {
        check(s.label("le") != null, "bucket without le in " + f.name);
        buckets.computeIfAbsent(s.seriesKey(), k -> new ArrayList<>()).add(s);
      } else if (s.name.endsWith("_count")) {
        counts.put(s.seriesKey(), s.value);
      }
    }
    for (Map.Entry<String, List<Sample>> e : buckets.entrySet()) {
      List<Sample> bs = e.getValue();
      double prevLe = Double.NEGATIVE_INFINITY;
      double prevCount = 0;
      for (Sample b : bs) {
        double le = parseValue(b.label("le"), f.name);
        check(le > prevLe, "le not increasing in " + f.name + " at " + b.label("le"));
        check(b.value >= prevCount, "bucket counts decrease in " + f.name + " at " + b.label("le"));
        prevLe = le;
        prevCount = b.value;
      }
      if (!lenient) {
        check(prevLe == Double.POSITIVE_INFINITY, "no +Inf bucket in " + f.name);
        Double count = counts.get(e.getKey());
        check(count != null && count == prevCount, "+Inf bucket != _count in " + f.name);
      }
    }
  }

  private static Sample sample(String line, String where) {
    int i = 0;
    while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
      i++;
    }
    String name = line.substring(0, i);
    check(NAME.matcher(name).matches(), "bad metric name, " + where);
    List<String[]> labels = new ArrayList<>();
    if (i < line.length() && line.charAt(i) == '{') {
      i++;
      while (line.charAt(i) != '}') {
        int eq = line.indexOf('=', i);
        check(eq > 0, "label without =, " + where);
        String label = line.substring(i, eq);
        check(LABEL.matcher(label).matches(), "bad label name " + label + ", " + where);
        check(line.charAt(eq + 1) == '"', "label value not quoted, " + where);
        StringBuilder v = new StringBuilder();
        int j = eq + 2;
        for (; line.charAt(j) != '"'; j++) {
          char c = line.charAt(j);
          if (c == '\\') {
            char e = line.charAt(++j);
            check(e == '\\' || e == '"' || e == 'n', "bad escape, " + where);
            v.append(e == 'n' ? '\n' : e);
          } else {
            v.append(c);
          }
        }
        for (String[] l : labels) {
          check(!l[0].equals(label), "duplicate label " + label + ", " + where);
        }
        labels.add(new String[] {label, v.toString()});
        i = j + 1;
        if (line.charAt(i) == ',') {
          i++;
        } else {
          check(line.charAt(i) == '}', "expected , or }, " + where);
        }
      }
      i++;
    }
    check(i < line.length() && line.charAt(i) == ' ', "no space before value, " + where);
    String value = line.substring(i + 1);
    check(!value.contains(" "), "timestamps are not expected here, " + where);
    return new Sample(name, labels, parseValue(value, where));
  }

  static double parseValue(String v, String where) {
    switch (v) {
      case "+Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      case "NaN":
        return Double.NaN;
      default:
        Matcher m = NUMBER.matcher(v);
        check(m.matches(), "bad value " + v + ", " + where);
        return Double.parseDouble(v);
    }
  }

  private static List<String> flatten(List<String[]> labels) {
    List<String> out = new ArrayList<>();
    for (String[] l : labels) {
      out.add(l[0] + "=" + l[1]);
    }
    out.sort(null);
    return out;
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new AssertionError(message);
    }
  }
}
