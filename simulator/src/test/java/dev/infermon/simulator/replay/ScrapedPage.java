package dev.infermon.simulator.replay;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.textparse.Conformance;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.ParseException;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A page as a scraper reads it (textparse, lenient), each sample with the family of the {@code #
 * TYPE} line it follows: the tests' own view of what a sample is, independent of the replay's.
 */
record ScrapedPage(List<Sample> samples) {
  private static final ParserOptions LENIENT =
      ParserOptions.builder().conformance(Conformance.LENIENT).build();

  /** One sample, with the type of the family it belongs to ({@code UNKNOWN} when untyped). */
  record Sample(Labels labels, String name, MetricType type, double value) {
    /** Whether the replay must advance it: counters, histogram and summary counts and sums. */
    boolean advances() {
      switch (type) {
        case COUNTER:
          return !name.endsWith("_created");
        case HISTOGRAM:
          return name.endsWith("_bucket") || name.endsWith("_count") || name.endsWith("_sum");
        case SUMMARY:
          return name.endsWith("_count") || name.endsWith("_sum");
        case UNKNOWN:
          return name.endsWith("_total");
        default:
          return false;
      }
    }
  }

  /** Parses a served page; any error fails. */
  static ScrapedPage parse(String body, String contentType) throws ParseException {
    return read(body.getBytes(StandardCharsets.UTF_8), contentType, false);
  }

  /** Parses a capture as captured: the lines before a cut end. */
  static ScrapedPage parseCapture(byte[] capture) {
    try {
      return read(capture, null, true);
    } catch (ParseException e) {
      throw new AssertionError(e);
    }
  }

  private static ScrapedPage read(byte[] body, String contentType, boolean stopAtCut)
      throws ParseException {
    Parser p =
        contentType == null
            ? Parsers.forFormat(Parsers.sniff(body, body.length), LENIENT).parse(body)
            : Parsers.forContentType(contentType, LENIENT).parse(body);
    List<Sample> out = new ArrayList<>();
    String family = null;
    MetricType type = MetricType.UNKNOWN;
    try {
      for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
        if (e == Entry.TYPE) {
          family = p.familyName();
          type = p.type();
        } else if (e == Entry.SERIES) {
          String name = p.metricName();
          boolean ofFamily = family != null && name.startsWith(family);
          out.add(new Sample(p.labels(), name, ofFamily ? type : MetricType.UNKNOWN, p.value()));
        }
      }
    } catch (ParseException e) {
      if (!stopAtCut) {
        throw e;
      }
    }
    return new ScrapedPage(out);
  }

  /** The samples by their labels (a page's series are distinct). */
  Map<Labels, Sample> bySeries() {
    Map<Labels, Sample> m = new LinkedHashMap<>();
    for (Sample s : samples) {
      m.put(s.labels(), s);
    }
    return m;
  }

  /** One histogram series: buckets by bound, {@code _count} and {@code _sum} (NaN if absent). */
  static final class Histogram {
    final TreeMap<Double, Double> buckets = new TreeMap<>();
    double count = Double.NaN;
    double sum = Double.NaN;
  }

  /** Every histogram series, keyed by its family name and labels without {@code le}. */
  Map<Labels, Histogram> histograms() {
    Map<Labels, Histogram> out = new LinkedHashMap<>();
    for (Sample s : samples) {
      if (s.type() != MetricType.HISTOGRAM) {
        continue;
      }
      String n = s.name();
      String suffix = n.endsWith("_bucket") ? "_bucket" : n.endsWith("_count") ? "_count" : "_sum";
      if (!n.endsWith(suffix)) {
        continue;
      }
      String base = n.substring(0, n.length() - suffix.length());
      Labels key = s.labels().toBuilder().set("__name__", base).del("le").build();
      Histogram h = out.computeIfAbsent(key, k -> new Histogram());
      switch (suffix) {
        case "_bucket":
          h.buckets.put(bound(s.labels().get("le")), s.value());
          break;
        case "_count":
          h.count = s.value();
          break;
        default:
          h.sum = s.value();
      }
    }
    return out;
  }

  private static double bound(String le) {
    return le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
  }
}
