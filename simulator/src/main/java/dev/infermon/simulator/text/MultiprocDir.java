package dev.infermon.simulator.text;

import dev.infermon.simulator.text.PythonFamilies.Child;
import dev.infermon.simulator.text.PythonFamilies.HistogramChild;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@code PROMETHEUS_MULTIPROC_DIR} and the page prometheus_client's {@code MultiProcessCollector}
 * makes of it (prometheus/client_python prometheus_client/multiprocess.py and values.py @
 * d0b497ff). Every process writes its own files, one per kind: {@code counter_<pid>.db}, {@code
 * histogram_<pid>.db}, {@code summary_<pid>.db} and {@code gauge_<multiprocess_mode>_<pid>.db}
 * (MultiProcessValue), each holding its samples in the order their children were first created
 * ({@code labels()}: MmapedDict appends a key at its first read). The collector reads the files in
 * the order {@code glob} lists them, makes a family at the first file that has it, and prints it
 * with the HELP that file carries: no {@code _created} (never written to a file), counters summed
 * over the processes, a histogram's children each as {@code _sum}, its buckets, {@code _count}
 * (_accumulate_metrics), a summary's as {@code _count}, {@code _sum}; a family no process created a
 * child of is not on the page at all. {@code glob}'s order is the directory's (unspecified, hash
 * order on ext4); this class lists the files by name, so the family order here is one a real pod
 * can show, and nothing may depend on it. Gauges are modelled in the aggregating modes only (sum,
 * max, min, mostrecent and their live forms drop the {@code pid} label); a gauge child is written
 * by one process. Not thread-safe.
 */
public final class MultiprocDir {
  private final TreeMap<String, Map<String, Fam>> files = new TreeMap<>();

  /** One family as one file holds it. */
  private record Fam(String help, String type, List<Object> children) {}

  /**
   * The files of process {@code pid}.
   *
   * @param pid the process id in the file names
   * @param gaugeMode the multiprocess_mode of its gauges ({@code mostrecent}, {@code sum}, ...)
   */
  public Families process(int pid, String gaugeMode) {
    return new Families() {
      @Override
      public void gauge(String name, String help, List<Child> children) {
        add("gauge_" + gaugeMode + "_" + pid, name, help, "gauge", children);
      }

      @Override
      public void counter(String base, String help, List<Child> children) {
        add("counter_" + pid, base, help, "counter", children);
      }

      @Override
      public void summary(String base, String help, List<Child> counts, List<Child> sums) {
        List<Object> pairs = new ArrayList<>();
        for (int i = 0; i < counts.size(); i++) {
          pairs.add(new Child[] {counts.get(i), sums.get(i)});
        }
        add("summary_" + pid, base, help, "summary", pairs);
      }

      @Override
      public void histogram(String base, String help, List<HistogramChild> children) {
        add("histogram_" + pid, base, help, "histogram", children);
      }
    };
  }

  private void add(String file, String name, String help, String type, List<?> children) {
    if (children.isEmpty()) {
      return; // no child, no key in the file
    }
    files
        .computeIfAbsent(file + ".db", k -> new LinkedHashMap<>())
        .computeIfAbsent(name, k -> new Fam(help, type, new ArrayList<>()))
        .children()
        .addAll(children);
  }

  /** Appends the page the collector serves. */
  public void write(PromText out) {
    Map<String, Fam> merged = new LinkedHashMap<>();
    for (Map<String, Fam> file : files.values()) {
      for (Map.Entry<String, Fam> e : file.entrySet()) {
        Fam f = e.getValue();
        merged
            .computeIfAbsent(e.getKey(), k -> new Fam(f.help(), f.type(), new ArrayList<>()))
            .children()
            .addAll(f.children());
      }
    }
    for (Map.Entry<String, Fam> e : merged.entrySet()) {
      write(out, e.getKey(), e.getValue());
    }
  }

  private static void write(PromText out, String name, Fam f) {
    switch (f.type()) {
      case "counter" -> {
        out.family(name + "_total", f.help(), "counter");
        for (Map.Entry<String, double[]> c : summed(f.children()).entrySet()) {
          out.sortedSample(name + "_total", labelsOf(c.getKey()), c.getValue()[0]);
        }
      }
      case "summary" -> {
        out.family(name, f.help(), "summary");
        for (Object o : f.children()) {
          Child[] cs = (Child[]) o;
          out.sortedSample(name + "_count", cs[0].labels(), cs[0].value());
          out.sortedSample(name + "_sum", cs[1].labels(), cs[1].value());
        }
      }
      case "histogram" -> {
        out.family(name, f.help(), "histogram");
        for (Object o : f.children()) {
          HistogramChild c = (HistogramChild) o;
          Histogram h = c.histogram();
          out.sortedSample(name + "_sum", c.labels(), h.sum());
          long[] cumulative = new long[h.size() + 1];
          h.cumulativeInto(cumulative);
          String[] around = out.sortedAroundLe(c.labels());
          for (int i = 0; i <= h.size(); i++) {
            out.bucket(name + "_bucket", around, h.le(i), cumulative[i]);
          }
          out.sortedSample(name + "_count", c.labels(), h.count());
        }
      }
      default -> {
        out.family(name, f.help(), "gauge");
        for (Object o : f.children()) {
          Child c = (Child) o;
          out.sortedSample(name, c.labels(), c.value());
        }
      }
    }
  }

  /** Counter children by their label set, the processes' values added (first process's place). */
  private static Map<String, double[]> summed(List<Object> children) {
    Map<String, double[]> out = new LinkedHashMap<>();
    for (Object o : children) {
      Child c = (Child) o;
      out.computeIfAbsent(String.join("\u0000", c.labels()), k -> new double[1])[0] += c.value();
    }
    return out;
  }

  private static String[] labelsOf(String key) {
    return key.isEmpty() ? new String[0] : key.split("\u0000", -1);
  }
}
