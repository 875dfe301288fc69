package dev.infermon.tsdb.block;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.testing.Sample;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/** Every series of a sorted map, as a block writer's input. */
final class MapSeriesSet implements SeriesSet {
  private final Iterator<Map.Entry<Labels, List<Sample>>> it;
  private Series at;

  MapSeriesSet(SortedMap<Labels, List<Sample>> data) {
    this.it = data.entrySet().iterator();
  }

  @Override
  public boolean next() {
    if (!it.hasNext()) {
      return false;
    }
    Map.Entry<Labels, List<Sample>> e = it.next();
    List<Sample> samples = e.getValue();
    Labels labels = e.getKey();
    at =
        new Series() {
          @Override
          public Labels labels() {
            return labels;
          }

          @Override
          public SampleIterator iterator() {
            return new ListIterator(samples);
          }
        };
    return true;
  }

  @Override
  public Series at() {
    return at;
  }

  private static final class ListIterator implements SampleIterator {
    private final List<Sample> samples;
    private int i = -1;

    ListIterator(List<Sample> samples) {
      this.samples = samples;
    }

    @Override
    public boolean next() {
      return ++i < samples.size();
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
