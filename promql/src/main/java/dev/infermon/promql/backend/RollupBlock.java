package dev.infermon.promql.backend;

import dev.infermon.model.labels.Labels;
import dev.infermon.promql.value.Annotation;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.storage.Backfill;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One query's answers over a run of steps older than the store's appendable window, as the series
 * of a block ({@link Backfill}): the same series, notes and markers {@link RollupWriter} appends
 * for newer steps, so that the block holds a step's marker exactly when it holds its answer.
 * Immutable once built.
 */
final class RollupBlock {
  private final List<Backfill.Samples> series;
  private final long steps;
  private final long newest;

  private RollupBlock(List<Backfill.Samples> series, long steps, long newest) {
    this.series = series;
    this.steps = steps;
    this.newest = newest;
  }

  /**
   * The block of query {@code id}'s answer in {@code parts}, which come in time order and do not
   * overlap.
   */
  static RollupBlock of(String id, List<RollupWriter.Part> parts, long intervalMs) {
    Map<Labels, Run> runs = new TreeMap<>();
    for (RollupWriter.Part p : parts) {
      for (TimeSeries s : p.answer().series()) {
        Run r = runs.computeIfAbsent(Rollups.stored(s.labels(), id), k -> new Run());
        for (int i = 0; i < s.size(); i++) {
          r.add(s.timestampAt(i), s.valueAt(i));
        }
      }
      for (Annotation n : p.notes().all()) {
        runs.computeIfAbsent(Rollups.note(id, n), k -> new Run()).add(p.from(), 1);
      }
    }
    Run marker = runs.computeIfAbsent(Rollups.steps(id), k -> new Run());
    long steps = 0;
    long newest = Long.MIN_VALUE;
    for (RollupWriter.Part p : parts) {
      for (long t = p.from(); t <= p.to(); t += intervalMs) {
        marker.add(t, 1);
        steps++;
        newest = t;
      }
    }
    List<Backfill.Samples> out = new ArrayList<>(runs.size());
    for (Map.Entry<Labels, Run> e : runs.entrySet()) {
      if (e.getValue().n > 0) {
        out.add(e.getValue().samples(e.getKey()));
      }
    }
    return new RollupBlock(List.copyOf(out), steps, newest);
  }

  /** The series, sorted by labels. */
  List<Backfill.Samples> series() {
    return series;
  }

  /** The steps marked. */
  long steps() {
    return steps;
  }

  /** The newest step marked, {@link Long#MIN_VALUE} when none. */
  long newest() {
    return newest;
  }

  /** One series' samples as they come, in time order. */
  private static final class Run {
    private long[] t = new long[64];
    private double[] v = new double[64];
    private int n;

    void add(long ts, double value) {
      if (n == t.length) {
        t = Arrays.copyOf(t, n * 2);
        v = Arrays.copyOf(v, n * 2);
      }
      t[n] = ts;
      v[n++] = value;
    }

    Backfill.Samples samples(Labels labels) {
      return new Backfill.Samples(labels, Arrays.copyOf(t, n), Arrays.copyOf(v, n));
    }
  }
}
