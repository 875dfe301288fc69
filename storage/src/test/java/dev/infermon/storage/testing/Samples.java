package dev.infermon.storage.testing;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads query results into plain collections for assertions. */
public final class Samples {
  /** Guards against iterators that never end: no test data set is this large. */
  static final int MAX_SAMPLES = 10_000_000;

  private Samples() {}

  /** Every remaining sample of the iterator. */
  public static List<Sample> drain(SampleIterator it) {
    List<Sample> out = new ArrayList<>();
    while (it.next()) {
      out.add(new Sample(it.timestamp(), it.value()));
      if (out.size() > MAX_SAMPLES) {
        throw new AssertionError("iterator did not end after " + MAX_SAMPLES + " samples");
      }
    }
    return out;
  }

  /** The series of the set in the order it yields them, each with all its samples. */
  public static Map<Labels, List<Sample>> readAll(SeriesSet set) {
    Map<Labels, List<Sample>> out = new LinkedHashMap<>();
    while (set.next()) {
      Series s = set.at();
      if (out.put(s.labels(), drain(s.iterator())) != null) {
        throw new AssertionError("series set yields " + s.labels() + " twice");
      }
    }
    return out;
  }

  /** The labels of the set in the order it yields them. */
  public static List<Labels> labelsOf(SeriesSet set) {
    List<Labels> out = new ArrayList<>();
    while (set.next()) {
      out.add(set.at().labels());
    }
    return out;
  }

  /**
   * {@code it} behind the interface's own {@code nextBatch}, one {@code next()} at a time: the
   * reference an iterator's faster {@code nextBatch} must agree with.
   */
  public static SampleIterator oneByOne(SampleIterator it) {
    return new SampleIterator() {
      @Override
      public boolean next() {
        return it.next();
      }

      @Override
      public boolean seek(long t) {
        return it.seek(t);
      }

      @Override
      public long timestamp() {
        return it.timestamp();
      }

      @Override
      public double value() {
        return it.value();
      }
    };
  }
}
