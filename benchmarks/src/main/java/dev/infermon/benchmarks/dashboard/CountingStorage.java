package dev.infermon.benchmarks.dashboard;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.Storage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A storage that counts what the engine asks of it: selects, and the series they return (each
 * series a select yields is read from the index and, when iterated, decoded), and the samples read
 * from those series' iterators (each sample a {@code next}, {@code seek} or {@code nextBatch} lands
 * on; samples a seek skips inside a chunk are decoded too but not counted). The counts are what a
 * change in the dashboard's queries should lower, whatever the machine's load.
 */
final class CountingStorage implements Storage {
  private final Storage delegate;
  final LongAdder selects = new LongAdder();
  final LongAdder series = new LongAdder();
  final LongAdder samples = new LongAdder();

  /**
   * Per distinct select (matchers and time range): how often it was made and the samples read
   * through it, to tell how much of a load repeats the same selection. Cleared with the counters.
   */
  final ConcurrentHashMap<String, LongAdder[]> bySelect = new ConcurrentHashMap<>();

  CountingStorage(Storage delegate) {
    this.delegate = delegate;
  }

  @Override
  public Appender appender() {
    return delegate.appender();
  }

  @Override
  public Querier querier() {
    Querier q = delegate.querier();
    return new Querier() {
      @Override
      public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
        selects.increment();
        LongAdder[] mine =
            bySelect.computeIfAbsent(
                matchers + " [" + mint + ", " + maxt + "]",
                k -> new LongAdder[] {new LongAdder(), new LongAdder()});
        mine[0].increment();
        SeriesSet set = q.select(sorted, mint, maxt, matchers);
        return new SeriesSet() {
          @Override
          public boolean next() {
            boolean more = set.next();
            if (more) {
              series.increment();
            }
            return more;
          }

          @Override
          public Series at() {
            Series s = set.at();
            return new Series() {
              @Override
              public Labels labels() {
                return s.labels();
              }

              @Override
              public SampleIterator iterator() {
                return new CountingIterator(s.iterator(), mine[1]);
              }
            };
          }

          @Override
          public List<String> warnings() {
            return set.warnings();
          }
        };
      }

      @Override
      public boolean mayHaveSamplesIn(long mint, long maxt) {
        return q.mayHaveSamplesIn(mint, maxt);
      }

      @Override
      public List<String> labelValues(String name, long mint, long maxt, List<Matcher> matchers) {
        return q.labelValues(name, mint, maxt, matchers);
      }

      @Override
      public List<String> labelNames(long mint, long maxt, List<Matcher> matchers) {
        return q.labelNames(mint, maxt, matchers);
      }

      @Override
      public void close() {
        q.close();
      }
    };
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    return delegate.metadata(metric);
  }

  @Override
  public long startTime() {
    return delegate.startTime();
  }

  @Override
  public void close() {
    delegate.close();
  }

  /** Counts the samples an iterator lands on; batches pass through as batches. */
  private final class CountingIterator implements SampleIterator {
    private final SampleIterator it;
    private final LongAdder ofSelect;

    CountingIterator(SampleIterator it, LongAdder ofSelect) {
      this.it = it;
      this.ofSelect = ofSelect;
    }

    @Override
    public boolean next() {
      boolean more = it.next();
      if (more) {
        samples.increment();
        ofSelect.increment();
      }
      return more;
    }

    @Override
    public boolean seek(long t) {
      boolean found = it.seek(t);
      if (found) {
        samples.increment();
        ofSelect.increment();
      }
      return found;
    }

    @Override
    public long timestamp() {
      return it.timestamp();
    }

    @Override
    public double value() {
      return it.value();
    }

    @Override
    public int nextBatch(long[] ts, double[] vs, int off, int len, long maxt) {
      int r = it.nextBatch(ts, vs, off, len, maxt);
      samples.add(r < 0 ? ~r : r);
      ofSelect.add(r < 0 ? ~r : r);
      return r;
    }
  }
}
