package dev.infermon.storage.testing;

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
import java.util.concurrent.atomic.LongAdder;

/**
 * A storage that counts the samples its iterators land on ({@code next}, {@code seek}, {@code
 * nextBatch}): what a change to how queries read should lower. Thread-safe.
 */
public final class CountingStorage implements Storage {
  private final Storage storage;

  /** Samples landed on so far. */
  public final LongAdder samples = new LongAdder();

  public CountingStorage(Storage storage) {
    this.storage = storage;
  }

  @Override
  public Appender appender() {
    return storage.appender();
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    return storage.metadata(metric);
  }

  @Override
  public long startTime() {
    return storage.startTime();
  }

  @Override
  public void close() {
    storage.close();
  }

  @Override
  public Querier querier() {
    Querier q = storage.querier();
    return new Querier() {
      @Override
      public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
        SeriesSet set = q.select(sorted, mint, maxt, matchers);
        return new SeriesSet() {
          @Override
          public boolean next() {
            return set.next();
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
                return counted(s.iterator());
              }
            };
          }
        };
      }

      @Override
      public List<String> labelValues(String name, long mint, long maxt, List<Matcher> m) {
        return q.labelValues(name, mint, maxt, m);
      }

      @Override
      public List<String> labelNames(long mint, long maxt, List<Matcher> m) {
        return q.labelNames(mint, maxt, m);
      }

      @Override
      public void close() {
        q.close();
      }
    };
  }

  private SampleIterator counted(SampleIterator it) {
    return new SampleIterator() {
      @Override
      public boolean next() {
        boolean ok = it.next();
        if (ok) {
          samples.increment();
        }
        return ok;
      }

      @Override
      public boolean seek(long t) {
        boolean ok = it.seek(t);
        if (ok) {
          samples.increment();
        }
        return ok;
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
        return r;
      }
    };
  }
}
