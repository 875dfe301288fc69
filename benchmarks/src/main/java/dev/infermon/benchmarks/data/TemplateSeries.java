package dev.infermon.benchmarks.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One series of a captured scrape and how it evolves. A deliberately small line reader for the text
 * format (name, labels with escapes, value); comments other than TYPE are skipped.
 */
record TemplateSeries(String name, Map<String, String> labels, double value, Kind kind) {
  enum Kind {
    COUNTER,
    GAUGE,
    CONSTANT,
    BUCKET,
    SUM,
    COUNT,
    CREATED
  }

  static List<TemplateSeries> load(String resource) {
    InputStream in = TemplateSeries.class.getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalArgumentException("resource not found: " + resource);
    }
    Map<String, String> types = new LinkedHashMap<>();
    List<TemplateSeries> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("# TYPE ")) {
          String[] p = line.split(" ");
          types.put(p[2], p[3]);
        } else if (!line.isEmpty() && line.charAt(0) != '#') {
          out.add(parse(line, types));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static TemplateSeries parse(String line, Map<String, String> types) {
    int i = 0;
    while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
      i++;
    }
    String name = line.substring(0, i);
    Map<String, String> labels = new LinkedHashMap<>();
    if (i < line.length() && line.charAt(i) == '{') {
      i++;
      while (line.charAt(i) != '}') {
        int eq = line.indexOf('=', i);
        String ln = line.substring(i, eq).trim();
        StringBuilder v = new StringBuilder();
        int j = eq + 2; // past ="
        while (line.charAt(j) != '"') {
          char c = line.charAt(j);
          if (c == '\\') {
            char n = line.charAt(++j);
            v.append(n == 'n' ? '\n' : n);
          } else {
            v.append(c);
          }
          j++;
        }
        labels.put(ln, v.toString());
        i = j + 1;
        if (line.charAt(i) == ',') {
          i++;
        }
      }
      i++;
    }
    double value = Double.parseDouble(line.substring(i).trim().split(" ")[0]);
    return new TemplateSeries(name, labels, value, kindOf(name, types));
  }

  private static Kind kindOf(String name, Map<String, String> types) {
    String family = types.containsKey(name) ? name : baseName(name);
    String type = types.getOrDefault(family, "untyped");
    if (name.endsWith("_created")) {
      return Kind.CREATED;
    }
    if (type.equals("histogram") || type.equals("summary")) {
      if (name.endsWith("_bucket")) {
        return Kind.BUCKET;
      }
      if (name.endsWith("_sum")) {
        return Kind.SUM;
      }
      if (name.endsWith("_count")) {
        return Kind.COUNT;
      }
      return Kind.GAUGE; // summary quantiles
    }
    if (type.equals("counter") || name.endsWith("_total")) {
      return Kind.COUNTER;
    }
    if (name.endsWith("_info")
        || name.endsWith("_start_time_seconds")
        || name.endsWith("max_fds")) {
      return Kind.CONSTANT;
    }
    return Kind.GAUGE;
  }

  private static String baseName(String name) {
    for (String suffix : new String[] {"_bucket", "_sum", "_count", "_created", "_total"}) {
      if (name.endsWith(suffix)) {
        return name.substring(0, name.length() - suffix.length());
      }
    }
    return name;
  }
}
