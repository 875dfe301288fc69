package dev.infermon.storage.testing;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A querier over a fixed map of series, evaluated naively: a reference for tests of combinators
 * such as {@link dev.infermon.storage.MergeQuerier}. Records whether it was closed.
 */
public final class FixedQuerier implements Querier {
  private final TreeMap<Labels, List<Sample>> data;
  private final List<String> warnings;
  private boolean closed;

  private FixedQuerier(Map<Labels, List<Sample>> data, List<String> warnings) {
    this.data = new TreeMap<>(data);
    this.warnings = List.copyOf(warnings);
  }

  /** A querier over these series; samples must be in increasing time order. */
  public static FixedQuerier of(Map<Labels, List<Sample>> data) {
    return new FixedQuerier(data, List.of());
  }

  /** Same, with warnings every select reports. */
  public static FixedQuerier withWarnings(Map<Labels, List<Sample>> data, List<String> warnings) {
    return new FixedQuerier(data, warnings);
  }

  public boolean closed() {
    return closed;
  }

  @Override
  public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
    List<Series> out = new ArrayList<>();
    for (Map.Entry<Labels, List<Sample>> e : data.entrySet()) {
      if (!matchesAll(e.getKey(), matchers)) {
        continue;
      }
      List<Sample> in = new ArrayList<>();
      for (Sample s : e.getValue()) {
        if (s.t() >= mint && s.t() <= maxt) {
          in.add(s);
        }
      }
      if (!in.isEmpty()) {
        Labels labels = e.getKey();
        out.add(
            new Series() {
              @Override
              public Labels labels() {
                return labels;
              }

              @Override
              public SampleIterator iterator() {
                return new ListIterator(in);
              }
            });
      }
    }
    Iterator<Series> it = out.iterator();
    return new SeriesSet() {
      private Series at;

      @Override
      public boolean next() {
        at = it.hasNext() ? it.next() : null;
        return at != null;
      }

      @Override
      public Series at() {
        return at;
      }

      @Override
      public List<String> warnings() {
        return warnings;
      }
    };
  }

  @Override
  public List<String> labelValues(String name, long mint, long maxt, List<Matcher> matchers) {
    TreeSet<String> out = new TreeSet<>();
    for (Map.Entry<Labels, List<Sample>> e : data.entrySet()) {
      if (matchesAll(e.getKey(), matchers)
          && e.getKey().has(name)
          && hasData(e.getValue(), mint, maxt)) {
        out.add(e.getKey().get(name));
      }
    }
    return List.copyOf(out);
  }

  @Override
  public List<String> labelNames(long mint, long maxt, List<Matcher> matchers) {
    TreeSet<String> out = new TreeSet<>();
    for (Map.Entry<Labels, List<Sample>> e : data.entrySet()) {
      if (matchesAll(e.getKey(), matchers) && hasData(e.getValue(), mint, maxt)) {
        out.addAll(e.getKey().names());
      }
    }
    return List.copyOf(out);
  }

  @Override
  public void close() {
    closed = true;
  }

  private static boolean matchesAll(Labels labels, List<Matcher> matchers) {
    for (Matcher m : matchers) {
      if (!m.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasData(List<Sample> samples, long mint, long maxt) {
    for (Sample s : samples) {
      if (s.t() >= mint && s.t() <= maxt) {
        return true;
      }
    }
    return false;
  }

  /** Iterates a list of samples with the seam's seek semantics. */
  static final class ListIterator implements SampleIterator {
    private final List<Sample> samples;
    private int i = -1;

    ListIterator(List<Sample> samples) {
      this.samples = samples;
    }

    @Override
    public boolean next() {
      if (i < samples.size()) {
        i++;
      }
      return i < samples.size();
    }

    @Override
    public boolean seek(long t) {
      if (i < 0) {
        i = 0;
      }
      while (i < samples.size() && samples.get(i).t() < t) {
        i++;
      }
      return i < samples.size();
    }

    @Override
    public long timestamp() {
      return samples.get(i).t();
    }

    @Override
    public double value() {
      return samples.get(i).v();
    }
  }
}
