package dev.infermon.promql.backend;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.value.Annotation;
import dev.infermon.promql.value.Annotations;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.storage.AppendWatermark;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Backfill;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.SeriesSet;
import dev.infermon.storage.StorageException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Writes the stored answers of {@link Rollups}: each {@link #advance()} evaluates every kept query
 * at the grid's steps not written yet up to {@code lag} before the clock (so that the scrapes of a
 * step are committed), as range queries at the interval, 30 minutes of steps at a time, all queries
 * per 30 minutes before the next (the store, a TSDB, accepts samples only inside its own appendable
 * window behind its newest); and appends the result series and a marker per step. The first call
 * after start is the catch-up: from each query's last marker (a query without one: from the
 * history's start, at most {@code maxBack} before the clock), with progress reported; the calls
 * after it, one interval apart, write the step or two that became due. The same code writes the
 * demo's and the benchmark's histories. Steps due before the store's appendable window (a query new
 * to a running store, whose other queries moved the window on) are written first, as a block of
 * their own per query with their markers ({@link Backfill}), when the store takes one; else they
 * stay raw.
 *
 * <p>Exactness: a step whose evaluation had annotations is neither stored nor marked (it stays raw,
 * so its annotations are the engine's): a range that had any is evaluated again in halves down to
 * single steps. Late samples: before each evaluation the writer reads the evaluated storage's mark
 * ({@link AppendWatermark}); at the next call, every written step at or after the lowest sample
 * committed since is revoked in the store ({@link Rollups#REVOKED}), since stored samples cannot be
 * replaced; until then the reader takes them back itself ({@link Rollups#unverified}). Where the
 * storage no longer tells that far back, every step from its bound of final samples then is
 * revoked.
 *
 * <p>Threading: {@link #advance()} is synchronized; one thread calls it (the server's scheduler).
 */
public final class RollupWriter {
  /**
   * How far back the catch-up reaches for a query without markers: the dashboard's longest default
   * range.
   */
  public static final long REACH_MS = 6 * 3_600_000L;

  /** Intervals behind the clock a step is evaluated: a scrape of the step has one to commit. */
  public static final int LAG_INTERVALS = 2;

  /** Steps evaluated per range query, and written per commit: inside the store's window. */
  static final long CHUNK_MS = 30 * 60_000;

  private final Rollups rollups;
  private final QueryBackend evaluator;
  private final Supplier<? extends Collection<String>> queries;
  private final LongSupplier clock;
  private final LongSupplier historyStart;
  private final LongSupplier storeMin;
  private final long lagMs;
  private final long maxBackMs;
  private final Consumer<String> progress;
  private final Map<String, Long> cursor = new HashMap<>(); // last step evaluated, per id
  private boolean loaded;
  private long lastWritten = Long.MIN_VALUE;
  private long lastRevokedAt = Long.MIN_VALUE;
  private long mark;
  private long boundAtMark;
  private boolean marked;

  /**
   * @param rollups the store and the kept texts
   * @param evaluator evaluates raw (never through the stack, whose reader reads the store), and
   *     tells the evaluated storage's marks and final bound
   * @param queries the texts to keep, read at each call
   * @param clock wall time
   * @param historyStart the evaluated storage's earliest sample ({@link Long#MAX_VALUE}: empty)
   * @param storeMin the store's earliest appendable time ({@link Long#MIN_VALUE}: any); older steps
   *     go in as blocks when the store is a {@link Backfill}
   * @param lagMs how far behind the clock a step is evaluated, at least one interval
   * @param maxBackMs how far back the catch-up reaches for a query without markers
   * @param progress where the catch-up reports
   * @throws IllegalArgumentException for a null argument or a lag under one interval
   */
  public RollupWriter(
      Rollups rollups,
      QueryBackend evaluator,
      Supplier<? extends Collection<String>> queries,
      LongSupplier clock,
      LongSupplier historyStart,
      LongSupplier storeMin,
      long lagMs,
      long maxBackMs,
      Consumer<String> progress) {
    if (rollups == null
        || evaluator == null
        || queries == null
        || clock == null
        || historyStart == null
        || storeMin == null
        || progress == null) {
      throw new IllegalArgumentException("rollup writer: null argument");
    }
    if (lagMs < rollups.intervalMs() || maxBackMs < 0) {
      throw new IllegalArgumentException(
          "rollup writer: lag "
              + lagMs
              + " ms under the interval "
              + rollups.intervalMs()
              + " ms, or negative reach "
              + maxBackMs);
    }
    this.rollups = rollups;
    this.evaluator = evaluator;
    this.queries = queries;
    this.clock = clock;
    this.historyStart = historyStart;
    this.storeMin = storeMin;
    this.lagMs = lagMs;
    this.maxBackMs = maxBackMs;
    this.progress = progress;
  }

  /**
   * The writer {@code serve} runs, and the demo's and the benchmark's histories are written with:
   * {@link #LAG_INTERVALS} behind the clock, {@link #REACH_MS} back at most.
   */
  public static RollupWriter standard(
      Rollups rollups,
      QueryBackend evaluator,
      Supplier<? extends Collection<String>> queries,
      LongSupplier clock,
      LongSupplier historyStart,
      LongSupplier storeMin,
      Consumer<String> progress) {
    return new RollupWriter(
        rollups,
        evaluator,
        queries,
        clock,
        historyStart,
        storeMin,
        LAG_INTERVALS * rollups.intervalMs(),
        REACH_MS,
        progress);
  }

  /**
   * Evaluates and writes every step due; first revokes steps a late commit changed.
   *
   * @return the steps written (over all queries)
   */
  public synchronized long advance() {
    rollups.setQueries(queries.get());
    Map<String, String> ids = rollups.queries();
    long iv = rollups.intervalMs();
    long to = rollups.floor(clock.getAsLong() - lagMs);
    if (!loaded) {
      loadCursors(to);
      loaded = true;
    }
    long min = storeMin.getAsLong();
    long window = min == Long.MIN_VALUE ? Long.MIN_VALUE : rollups.ceil(min);
    Optional<Backfill> backfill = rollups.backfill();
    Map<String, Long> from =
        starts(ids.values(), to, backfill.isPresent() ? Long.MIN_VALUE : window);
    long first = earliest(from);
    // the catch-up reports (the first run, or one after a pause of over a chunk)
    boolean report = first != Long.MAX_VALUE && to - first > CHUNK_MS;
    if (report) {
      progress.accept(
          "rollups: catching up "
              + ids.size()
              + " queries from "
              + Instant.ofEpochMilli(first)
              + " to "
              + Instant.ofEpochMilli(to));
    }
    if (first > to) {
      verify();
      return 0;
    }
    long written = 0;
    if (backfill.isPresent() && window > first) {
      written += backfill(backfill.get(), ids, from, Math.min(to, window - iv));
    }
    long start = first;
    first = earliest(from);
    for (long cs = first; cs <= to; cs += CHUNK_MS) {
      long ce = Math.min(to, cs + CHUNK_MS - iv);
      verify();
      for (Map.Entry<String, String> e : ids.entrySet()) {
        long a = Math.max(from.get(e.getValue()), cs);
        if (a <= ce) {
          written += write(e.getKey(), e.getValue(), a, ce);
          cursor.put(e.getValue(), ce);
        }
      }
      rollups.unverified(mark, boundAtMark);
      if (report) {
        progress.accept(
            "rollups: written up to "
                + Instant.ofEpochMilli(ce)
                + " ("
                + (ce - start + iv) * 100 / (to - start + iv)
                + "%, "
                + written
                + " query steps)");
      }
    }
    return written;
  }

  /**
   * The first step due of each query: after its last marker, at most {@code maxBack} before {@code
   * to}, not before the history's start nor {@code floor}.
   */
  private Map<String, Long> starts(Collection<String> ids, long to, long floor) {
    long reach = rollups.ceil(Math.max(to - maxBackMs, historyStart.getAsLong()));
    long iv = rollups.intervalMs();
    Map<String, Long> from = new HashMap<>();
    for (String id : ids) {
      Long c = cursor.get(id);
      from.put(id, Math.max(Math.max(reach, floor), c == null ? Long.MIN_VALUE : c + iv));
    }
    return from;
  }

  private static long earliest(Map<String, Long> from) {
    long first = Long.MAX_VALUE;
    for (long f : from.values()) {
      first = Math.min(first, f);
    }
    return first;
  }

  /**
   * Writes the steps of every query due before the store's appendable window (a query new to a
   * running store, one kept again after a while) as a block of its own per query, through {@code
   * last}, and moves the query's start past them. The block holds the steps' markers with their
   * answers, so a crash leaves both or neither; a query that fails stays raw there.
   *
   * @return the steps written
   */
  private long backfill(Backfill to, Map<String, String> ids, Map<String, Long> from, long last) {
    long written = 0;
    for (Map.Entry<String, String> e : ids.entrySet()) {
      String id = e.getValue();
      long a = from.get(id);
      if (a > last) {
        continue;
      }
      from.put(id, last + rollups.intervalMs());
      verify();
      rollups.unverified(mark, boundAtMark);
      long steps = writeBlock(to, e.getKey(), id, a, last);
      written += steps;
      progress.accept(
          "rollups: "
              + steps
              + " steps of a query new to the store, from "
              + Instant.ofEpochMilli(a)
              + " to "
              + Instant.ofEpochMilli(last)
              + " (before the store's appendable window), written as a block of its own: "
              + e.getKey());
    }
    return written;
  }

  /** Evaluates {@code text} over {@code [a, b]} and writes it as a block; the steps written. */
  private long writeBlock(Backfill to, String text, String id, long a, long b) {
    long iv = rollups.intervalMs();
    List<Part> parts = new ArrayList<>();
    try {
      for (long cs = a; cs <= b; cs += CHUNK_MS) {
        evaluate(text, cs, Math.min(b, cs + CHUNK_MS - iv), parts);
      }
    } catch (RuntimeException e) {
      progress.accept("rollups: " + text + " failed over " + a + ".." + b + ": " + e.getMessage());
      return 0;
    }
    RollupBlock block = RollupBlock.of(id, parts, iv);
    if (block.steps() == 0) {
      return 0;
    }
    try {
      to.backfill(a, b + 1, block.series());
    } catch (IOException | RuntimeException e) {
      progress.accept("rollups: could not store " + text + " as a block: " + e.getMessage());
      return 0;
    }
    cursor.put(id, block.newest());
    lastWritten = Math.max(lastWritten, block.newest());
    return block.steps();
  }

  /**
   * Revokes the written steps that commits since the last mark may have changed, then reads a new
   * mark for the evaluations that follow. The new mark is read first: a commit between it and the
   * check is seen by both, none by neither.
   */
  private void verify() {
    Optional<AppendWatermark> wm = evaluator.appendWatermark();
    if (wm.isEmpty()) {
      return;
    }
    long next = wm.get().mark();
    OptionalLong bound = evaluator.immutableBefore();
    long nextBound = bound.isPresent() ? bound.getAsLong() : Long.MIN_VALUE;
    if (marked) {
      OptionalLong low = wm.get().lowestSince(mark);
      long changedFrom = low.isPresent() ? low.getAsLong() : boundAtMark;
      if (changedFrom <= lastWritten) {
        revoke(rollups.ceil(changedFrom));
      }
    }
    mark = next;
    boundAtMark = nextBound;
    marked = true;
  }

  private void revoke(long fromMs) {
    long at = Math.max(lastWritten, lastRevokedAt + 1);
    Appender app = rollups.store().appender();
    try {
      app.append(Rollups.revoked(), at, (double) fromMs);
      app.commit();
      lastRevokedAt = at;
      progress.accept(
          "rollups: samples committed at or before "
              + Instant.ofEpochMilli(fromMs)
              + " after their steps were written: those up to "
              + Instant.ofEpochMilli(at)
              + " are evaluated raw");
    } catch (StorageException e) {
      app.rollback();
      throw e; // the reader would serve stale steps: let the caller see it
    }
  }

  /** Evaluates {@code text} over {@code [a, b]} and appends the answer; the steps written. */
  private long write(String text, String id, long a, long b) {
    List<Part> parts = new ArrayList<>();
    try {
      evaluate(text, a, b, parts);
    } catch (RuntimeException e) {
      progress.accept("rollups: " + text + " failed over " + a + ".." + b + ": " + e.getMessage());
      return 0;
    }
    long iv = rollups.intervalMs();
    Appender app = rollups.store().appender();
    long steps = 0;
    long newest = Long.MIN_VALUE;
    try {
      for (Part p : parts) {
        for (TimeSeries s : p.answer().series()) {
          Labels stored = Rollups.stored(s.labels(), id);
          long ref = 0;
          for (int i = 0; i < s.size(); i++) {
            ref = app.append(ref, stored, s.timestampAt(i), s.valueAt(i));
          }
        }
      }
      for (Part p : parts) {
        for (Annotation n : p.notes().all()) {
          app.append(Rollups.note(id, n), p.from(), 1);
        }
      }
      Labels marker = Rollups.steps(id);
      long ref = 0;
      for (Part p : parts) {
        for (long t = p.from(); t <= p.to(); t += iv) {
          ref = app.append(ref, marker, t, 1);
          steps++;
          newest = t;
        }
      }
      app.commit();
    } catch (StorageException e) {
      app.rollback();
      progress.accept("rollups: could not store " + text + ": " + e.getMessage());
      return 0;
    }
    lastWritten = Math.max(lastWritten, newest);
    return steps;
  }

  /** A run of steps evaluated at once; its annotations only when it is one step. */
  record Part(long from, long to, Matrix answer, Annotations notes) {}

  /**
   * The answer over {@code [a, b]} in parts: a range whose evaluation had annotations is evaluated
   * again in halves down to single steps, each kept with its own (a range's annotations are not
   * those of each of its steps).
   */
  private void evaluate(String text, long a, long b, List<Part> parts) {
    long iv = rollups.intervalMs();
    QueryResult r = evaluator.rangeQuery(text, a, b, iv);
    if (!(r.value() instanceof Matrix)) {
      return; // not a range-vector answer: nothing to keep
    }
    if (r.annotations().isEmpty() || a == b) {
      parts.add(new Part(a, b, (Matrix) r.value(), r.annotations()));
      return;
    }
    long mid = a + (b - a) / iv / 2 * iv;
    evaluate(text, a, mid, parts);
    evaluate(text, mid + iv, b, parts);
  }

  /** Each query's last marker and the newest step written, from the store. */
  private void loadCursors(long to) {
    long lo = to - maxBackMs - CHUNK_MS;
    try (Querier q = rollups.store().querier()) {
      SeriesSet set =
          q.select(false, lo, Long.MAX_VALUE, List.of(Matcher.metricName(Rollups.STEPS)));
      while (set.next()) {
        long last = Long.MIN_VALUE;
        SampleIterator it = set.at().iterator();
        while (it.next()) {
          last = Math.max(last, it.timestamp());
        }
        lastWritten = Math.max(lastWritten, last);
        if (last != Long.MIN_VALUE) {
          cursor.put(set.at().labels().get(Rollups.QUERY), last);
        }
      }
      SeriesSet rev =
          q.select(false, lo, Long.MAX_VALUE, List.of(Matcher.metricName(Rollups.REVOKED)));
      while (rev.next()) {
        SampleIterator it = rev.at().iterator();
        while (it.next()) {
          lastRevokedAt = Math.max(lastRevokedAt, it.timestamp());
        }
      }
    }
  }
}
