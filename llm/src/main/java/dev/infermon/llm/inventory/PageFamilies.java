package dev.infermon.llm.inventory;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.textparse.Conformance;
import dev.infermon.textparse.Entry;
import dev.infermon.textparse.Format;
import dev.infermon.textparse.ParseException;
import dev.infermon.textparse.Parser;
import dev.infermon.textparse.ParserOptions;
import dev.infermon.textparse.Parsers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads one {@code /metrics} page into its families, as the inventory and the catalog check need
 * them: family name (counters with {@code _total} whatever the format), type, label names and
 * bucket bounds. {@code _created} families and samples are metadata and are left out. Stateless.
 */
public final class PageFamilies {
  private PageFamilies() {}

  /**
   * The families of a page.
   *
   * @param contentType the response's Content-Type, or null to guess from the page
   * @throws ParseException when the page is not exposition text (the lines before it are kept only
   *     when the error is line-local)
   */
  public static Map<String, FamilyInfo> parse(byte[] page, String contentType)
      throws ParseException {
    Format format =
        contentType == null ? Parsers.sniff(page, page.length) : Parsers.formatFor(contentType);
    ParserOptions options = ParserOptions.builder().conformance(Conformance.LENIENT).build();
    Parser p = Parsers.forFormat(format, options).parse(page);
    Map<String, MetricType> types = new LinkedHashMap<>();
    Map<String, TreeSet<String>> labels = new LinkedHashMap<>();
    Map<String, TreeSet<Double>> bounds = new HashMap<>();
    for (Entry e = next(p); e != Entry.EOF; e = next(p)) {
      if (e == Entry.TYPE) {
        types.put(p.familyName(), p.type());
      } else if (e == Entry.SERIES) {
        Labels l = p.labels();
        String sample = l.get("__name__");
        String family = familyOf(sample, types);
        if (family == null) {
          continue; // a _created sample
        }
        TreeSet<String> names = labels.computeIfAbsent(family, k -> new TreeSet<>());
        for (int i = 0; i < l.size(); i++) {
          String n = l.name(i);
          if (!n.equals("__name__")
              && !(n.equals("le") && sample.endsWith("_bucket"))
              && !(n.equals("quantile") && isSummaryQuantile(sample, family, types))) {
            names.add(n);
          }
        }
        if (sample.endsWith("_bucket") && l.has("le")) {
          double le = parseLe(l.get("le"));
          if (!Double.isInfinite(le) && !Double.isNaN(le)) {
            bounds.computeIfAbsent(family, k -> new TreeSet<>()).add(le);
          }
        }
      }
    }
    Map<String, FamilyInfo> out = new LinkedHashMap<>();
    for (Map.Entry<String, TreeSet<String>> f : labels.entrySet()) {
      String name = f.getKey();
      MetricType t = types.getOrDefault(name, types.get(stripTotal(name)));
      out.put(
          name,
          new FamilyInfo(
              name,
              t == null ? MetricType.UNKNOWN : t,
              f.getValue(),
              new ArrayList<>(bounds.getOrDefault(name, new TreeSet<>()))));
    }
    // a TYPE line without samples still tells the family exists (an idle labelled family)
    for (Map.Entry<String, MetricType> t : types.entrySet()) {
      String name = t.getKey();
      if (name.endsWith("_created") || out.containsKey(name)) {
        continue;
      }
      String exposed =
          t.getValue() == MetricType.COUNTER && !name.endsWith("_total") ? name + "_total" : name;
      out.putIfAbsent(
          exposed, new FamilyInfo(exposed, t.getValue(), java.util.Set.of(), List.of()));
    }
    return out;
  }

  private static Entry next(Parser p) throws ParseException {
    while (true) {
      try {
        return p.next();
      } catch (ParseException e) {
        if (!e.isLineLocal()) {
          throw e;
        }
      }
    }
  }

  /** The family a sample belongs to, counters named with {@code _total}; null for _created. */
  private static String familyOf(String sample, Map<String, MetricType> types) {
    if (types.containsKey(sample)) {
      MetricType t = types.get(sample);
      if (t == MetricType.GAUGE && sample.endsWith("_created") && hasBase(sample, types)) {
        return null;
      }
      return sample;
    }
    for (String suffix : new String[] {"_bucket", "_sum", "_count"}) {
      if (sample.endsWith(suffix)) {
        String base = sample.substring(0, sample.length() - suffix.length());
        MetricType t = types.get(base);
        if (t == MetricType.HISTOGRAM
            || t == MetricType.SUMMARY
            || t == MetricType.GAUGEHISTOGRAM) {
          return base;
        }
      }
    }
    if (sample.endsWith("_total")) {
      String base = stripTotal(sample);
      if (types.get(base) == MetricType.COUNTER) {
        return sample; // OpenMetrics names the family without _total
      }
    }
    if (sample.endsWith("_created") && hasBase(sample, types)) {
      return null;
    }
    return sample;
  }

  private static boolean hasBase(String created, Map<String, MetricType> types) {
    String base = created.substring(0, created.length() - "_created".length());
    return types.containsKey(base) || types.containsKey(base + "_total");
  }

  private static String stripTotal(String name) {
    return name.endsWith("_total") ? name.substring(0, name.length() - 6) : name;
  }

  private static double parseLe(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  /** A summary's quantile sample ({@code quantile} is its structure, as {@code le} a bucket's). */
  private static boolean isSummaryQuantile(
      String sample, String family, Map<String, MetricType> types) {
    return sample.equals(family) && types.get(family) == MetricType.SUMMARY;
  }
}
