package dev.infermon.llm.inventory;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.storage.AppendWatermark;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Storage;
import dev.infermon.storage.testing.MemoryStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A {@link MemoryStorage} that stores label sets as the TSDB's head does, one names array per
 * distinct names tuple (so {@link Labels#sharesNamesWith} holds between series of one shape), and
 * tells what it committed since a mark ({@link AppendWatermark}: a mark is the number of commits
 * done, each commit counted once its samples are visible). Thread-safe as MemoryStorage is.
 */
final class InterningStorage implements Storage, AppendWatermark {
  private final MemoryStorage memory = new MemoryStorage();
  private final Map<List<String>, String[]> names = new HashMap<>();
  // the lowest timestamp of each commit, in commit order; guarded by this
  private final List<Long> commits = new ArrayList<>();

  @Override
  public Appender appender() {
    Appender a = memory.appender();
    return new Appender() {
      private long lowest = Long.MAX_VALUE;

      @Override
      public long append(long ref, Labels labels, long timestampMs, double value) {
        lowest = Math.min(lowest, timestampMs);
        return a.append(ref, intern(labels), timestampMs, value);
      }

      @Override
      public void updateMetadata(Labels labels, Metadata metadata) {
        a.updateMetadata(labels, metadata);
      }

      @Override
      public void commit() {
        a.commit();
        synchronized (InterningStorage.this) {
          commits.add(lowest);
        }
        lowest = Long.MAX_VALUE;
      }

      @Override
      public void rollback() {
        a.rollback();
        lowest = Long.MAX_VALUE;
      }
    };
  }

  private synchronized Labels intern(Labels l) {
    String[] n = names.computeIfAbsent(l.names(), k -> k.toArray(new String[0]));
    String[] v = new String[l.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = l.value(i);
    }
    return Labels.fromSortedNamesAndValues(n, v);
  }

  @Override
  public synchronized long mark() {
    return commits.size();
  }

  @Override
  public synchronized OptionalLong lowestSince(long mark) {
    long low = Long.MAX_VALUE;
    for (int i = (int) mark; i < commits.size(); i++) {
      low = Math.min(low, commits.get(i));
    }
    return OptionalLong.of(low);
  }

  @Override
  public Querier querier() {
    return memory.querier();
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    return memory.metadata(metric);
  }

  @Override
  public long startTime() {
    return memory.startTime();
  }

  @Override
  public void close() {
    memory.close();
  }
}
