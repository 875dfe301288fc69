package dev.infermon.remote.agent;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.storage.Appender;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The local "storage" of agent and remote mode (like {@code prometheus --agent}): it keeps no
 * samples, only each series' newest timestamp, so that out-of-order samples are rejected here as
 * the TSDB would reject them, before remote write sees them. Put it as the primary of a {@code
 * Fanout} whose sinks are the remote-write queues; queries find nothing.
 *
 * <p>Series not appended to for {@link #SERIES_RETENTION} are forgotten, bounding memory under
 * churn. Thread-safe; appenders follow {@link Appender}'s one-thread rule.
 */
public final class AgentStorage implements Storage {
  /** How long a series that receives nothing is remembered. */
  public static final long SERIES_RETENTION = TimeUnit.HOURS.toMillis(1);

  private static final long SWEEP_EVERY_NANOS = TimeUnit.MINUTES.toNanos(5);

  private final Map<Labels, AtomicLong> newest = new ConcurrentHashMap<>();
  private final AtomicLong lastSweep = new AtomicLong(System.nanoTime());
  private final AtomicLong maxTime = new AtomicLong(Long.MIN_VALUE);

  /** Series currently remembered. */
  public int seriesCount() {
    return newest.size();
  }

  @Override
  public Appender appender() {
    return new AgentAppender();
  }

  @Override
  public Querier querier() {
    return EmptyQuerier.INSTANCE;
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    return Map.of();
  }

  @Override
  public long startTime() {
    return Long.MAX_VALUE;
  }

  @Override
  public void close() {
    newest.clear();
  }

  private void sweep() {
    long now = System.nanoTime();
    long last = lastSweep.get();
    if (now - last < SWEEP_EVERY_NANOS || !lastSweep.compareAndSet(last, now)) {
      return;
    }
    long cutoff = maxTime.get() - SERIES_RETENTION;
    newest.values().removeIf(t -> t.get() < cutoff);
  }

  private final class AgentAppender implements Appender {
    private final List<Labels> labels = new ArrayList<>();
    private final List<Long> times = new ArrayList<>();

    @Override
    public long append(long ref, Labels l, long timestampMs, double value) {
      if (l == null || l.isEmpty()) {
        throw new IllegalArgumentException("empty label set");
      }
      AtomicLong last = newest.get(l);
      if (last != null && timestampMs < last.get()) {
        throw new OutOfOrderSampleException(l + " at " + timestampMs);
      }
      labels.add(l);
      times.add(timestampMs);
      return 0;
    }

    @Override
    public void commit() {
      long max = Long.MIN_VALUE;
      for (int i = 0; i < labels.size(); i++) {
        long t = times.get(i);
        max = Math.max(max, t);
        newest
            .computeIfAbsent(labels.get(i), k -> new AtomicLong(Long.MIN_VALUE))
            .accumulateAndGet(t, Math::max);
      }
      maxTime.accumulateAndGet(max, Math::max);
      labels.clear();
      times.clear();
      sweep();
    }

    @Override
    public void rollback() {
      labels.clear();
      times.clear();
    }
  }

  /** Nothing to find. */
  private static final class EmptyQuerier implements Querier {
    static final EmptyQuerier INSTANCE = new EmptyQuerier();

    @Override
    public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
      if (matchers.isEmpty()) {
        throw new IllegalArgumentException("no matchers given");
      }
      return SeriesSet.EMPTY;
    }

    @Override
    public List<String> labelValues(String name, long mint, long maxt, List<Matcher> matchers) {
      return List.of();
    }

    @Override
    public List<String> labelNames(long mint, long maxt, List<Matcher> matchers) {
      return List.of();
    }

    @Override
    public void close() {}
  }
}
