package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Storage;
import dev.infermon.tsdb.index.MemPostings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The in-memory head of the tsdb: takes every append, serves queries over recent data, and hands
 * its chunks to compaction. A {@link Storage} on its own (tests, benchmarks) or under the tsdb,
 * which adds the write-ahead log (through {@link HeadLog}) and on-disk blocks.
 *
 * <p>Threading: all methods are thread-safe. Appends to existing series take only that series'
 * monitor; see the package documentation for the locking scheme.
 *
 * <p>Visibility: a commit makes its samples visible series by series. A query that runs during a
 * commit may see some series of the commit and not yet others (Prometheus adds isolation by append
 * ids for that; this head does not), but never a partial series state or a sample that is later
 * taken back.
 */
public final class Head implements Storage {
  final HeadOptions options;
  final HeadMetadata metadata = new HeadMetadata();
  final MemPostings postings = new MemPostings();
  final Counters counters = new Counters();
  final SampleBufferPool sampleBuffers = new SampleBufferPool();
  final CommitTimes commitTimes = new CommitTimes(System::nanoTime);
  private final ChunkStore chunks;
  private final SeriesTable series = new SeriesTable();
  private final StringInterner interner = new StringInterner();
  private final AtomicLong minTime = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong maxTime = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong minValidTime = new AtomicLong(Long.MIN_VALUE);
  private volatile Runnable onCompactable;
  // Replay only: WAL references that name a series already created under another reference.
  private final Map<Long, MemSeries> replayAliases = new ConcurrentHashMap<>();

  static final class Counters {
    final LongAdder samplesAppended = new LongAdder();
    final LongAdder outOfOrder = new LongAdder();
    final LongAdder duplicate = new LongAdder();
    final LongAdder outOfBounds = new LongAdder();
    final LongAdder tooFarInFuture = new LongAdder();
    final LongAdder seriesCreated = new LongAdder();
    final LongAdder seriesRemoved = new LongAdder();
  }

  private Head(HeadOptions options, ChunkStore chunks) {
    this.options = options;
    this.chunks = chunks;
  }

  /**
   * An empty head.
   *
   * @throws UncheckedIOException when the options' chunk directory cannot be created or emptied
   */
  public static Head create(HeadOptions options) {
    if (options.chunkDir() == null) {
      return new Head(options, ChunkStore.onHeap());
    }
    try {
      return new Head(options, ChunkStore.inDirectory(options.chunkDir()));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot prepare the head chunk directory " + options.chunkDir(), e);
    }
  }

  /** An empty head with Prometheus's defaults and no log. */
  public static Head create() {
    return create(HeadOptions.defaults());
  }

  /**
   * A transaction. Samples older than the appendable window at this moment are rejected with {@link
   * dev.infermon.storage.OutOfBoundsException}: the window starts at the later of {@link
   * #setMinValidTime}'s value and, once the head holds data, half a chunk range before its newest
   * sample (Prometheus's appendableMinValidTime). It ends at {@link #maxValidTime()}: later samples
   * are rejected with {@link dev.infermon.storage.TooFarInFutureException}.
   */
  @Override
  public Appender appender() {
    return new HeadAppender(this, appendableMinValidTime(), options.maxValidTime());
  }

  /**
   * The latest sample time an appender created now accepts: the clock plus the future window. Later
   * samples are refused with {@link dev.infermon.storage.TooFarInFutureException}, so the head's
   * time range never moves beyond it.
   */
  public long maxValidTime() {
    return options.maxValidTime();
  }

  /** A mark for {@link #lowestCommittedSince}: read it before reading the head. */
  public long commitMark() {
    return commitTimes.mark();
  }

  /**
   * The lowest sample timestamp committed since {@code mark} was read ({@link Long#MAX_VALUE}:
   * none); empty when the mark is older than the head keeps track of (20 minutes).
   */
  public java.util.OptionalLong lowestCommittedSince(long mark) {
    return commitTimes.lowestSince(mark);
  }

  /**
   * The earliest sample time an appender created now accepts: nothing older can be added to the
   * head any more (appenders already open keep the window they started with).
   */
  public long appendableMinValidTime() {
    long valid = minValidTime.get();
    long max = maxTime.get();
    if (max == Long.MIN_VALUE) {
      return valid;
    }
    return Math.max(valid, max - options.chunkRangeMs() / 2);
  }

  @Override
  public Querier querier() {
    return new HeadQuerier(this);
  }

  @Override
  public Map<String, List<Metadata>> metadata(String metric) {
    return metadata.get(metric);
  }

  /** The earliest sample time, or {@link Long#MAX_VALUE} when empty. */
  @Override
  public long startTime() {
    return minTime.get();
  }

  /** Earliest sample time, {@link Long#MAX_VALUE} when empty. */
  public long minTime() {
    return minTime.get();
  }

  /** Latest sample time, {@link Long#MIN_VALUE} when empty. */
  public long maxTime() {
    return maxTime.get();
  }

  /**
   * Raises the start of the appendable window: samples before {@code t} are rejected as out of
   * bounds from now on (call after compaction with the newest block's max time). Never lowers it.
   */
  public void setMinValidTime(long t) {
    minValidTime.accumulateAndGet(t, Math::max);
  }

  public long minValidTime() {
    return minValidTime.get();
  }

  /** Deletes the completed-chunk segments, if any; idempotent. Not to be used afterwards. */
  @Override
  public void close() {
    chunks.close();
  }

  ChunkStore chunkStore() {
    return chunks;
  }

  public HeadStats stats() {
    return new HeadStats(
        series.size(),
        counters.seriesCreated.sum(),
        counters.seriesRemoved.sum(),
        counters.samplesAppended.sum(),
        counters.outOfOrder.sum(),
        counters.duplicate.sum(),
        counters.outOfBounds.sum(),
        counters.tooFarInFuture.sum(),
        minTime.get(),
        maxTime.get());
  }

  // ---- series lookup and creation -------------------------------------------------------------

  /**
   * The series for an append: by reference when it names these labels, else by labels. The
   * reference path is the hot one (a scrape cache passes the reference and the same labels instance
   * every scrape): an array lookup by id and, in the common case, an identity check.
   */
  MemSeries seriesFor(long ref, Labels labels) {
    if (ref != 0) {
      MemSeries s = series.get(ref);
      if (s != null && s.isNamedBy(labels)) {
        return s;
      }
    }
    if (labels.isEmpty()) {
      throw new IllegalArgumentException("a series needs at least one label");
    }
    return series.getOrCreate(labels, interner, (id, interned) -> newSeries(id, interned, true));
  }

  private MemSeries newSeries(int id, Labels interned, boolean log) {
    MemSeries s = new MemSeries(interned, id);
    if (log) {
      // Before the series is visible to any other appender, so it precedes all its samples.
      options.log().logSeries(id, interned);
    }
    postings.add(id, interned);
    counters.seriesCreated.increment();
    return s;
  }

  /** The labels of series {@code ref} (a replay alias too), or null when there is none. */
  public Labels seriesLabels(long ref) {
    MemSeries s = series.get(ref);
    if (s == null) {
      s = replayAliases.get(ref);
    }
    return s == null ? null : s.labels;
  }

  MemSeries seriesById(long id) {
    return series.get(id);
  }

  void widenTimeRange(long mint, long maxt) {
    long min = minTime.accumulateAndGet(mint, Math::min);
    long max = maxTime.accumulateAndGet(maxt, Math::max);
    Runnable r = onCompactable;
    if (r != null && max - options.chunkRangeMs() / 2 * 3 > min) {
      r.run();
    }
  }

  /**
   * Calls {@code r} after each commit that leaves the head spanning more than 1.5 chunk ranges
   * (compactable, as Prometheus's {@code Head.compactable}); on the committing thread, so it must
   * only hand the work off. Not during replay.
   */
  public void onCompactable(Runnable r) {
    onCompactable = r;
  }

  // ---- hooks for the write-ahead log and compaction -------------------------------------------

  /**
   * Replay: recreates a series under the reference the log gave it, without logging. If the labels
   * already exist under another reference, {@code ref} becomes an alias of that series.
   *
   * @return the series' reference in the head (equal to {@code ref} unless aliased)
   * @throws IllegalArgumentException when {@code ref} is not a positive int or the labels are empty
   */
  public long replaySeries(long ref, Labels labels) {
    if (ref <= 0 || ref > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("series reference out of range: " + ref);
    }
    if (labels.isEmpty()) {
      throw new IllegalArgumentException("a series needs at least one label");
    }
    MemSeries existing = series.get(labels);
    if (existing == null) {
      MemSeries byRef = series.get(ref);
      if (byRef != null) {
        throw new IllegalArgumentException(
            "reference " + ref + " already names " + byRef.labels + ", not " + labels);
      }
      existing =
          series.createWithId(
              (int) ref, labels, interner, (id, interned) -> newSeries(id, interned, false));
    }
    if (existing.id != ref) {
      replayAliases.put(ref, existing);
    }
    return existing.id;
  }

  /** What {@link #replaySample} did with a sample. */
  public enum Replayed {
    /** Appended. */
    APPENDED,
    /** Dropped as out of order or a duplicate (and counted as such). */
    DROPPED,
    /** Not taken: no series record has named the reference yet. */
    NO_SERIES
  }

  /**
   * Replay: appends one sample without logging. Out-of-order and duplicate samples are dropped and
   * counted as in a commit; out-of-bounds is not checked (the log decides what to replay). One
   * lookup of the reference says both whether it is known and where the sample goes, so a replay
   * needs no set of its own of the references it has seen.
   */
  public Replayed replaySample(long ref, long t, double v) {
    MemSeries s = replayed(ref);
    if (s == null) {
      return Replayed.NO_SERIES;
    }
    int verdict;
    synchronized (s) {
      verdict = s.appendable(t, Double.doubleToRawLongBits(v));
      if (verdict == MemSeries.OK) {
        s.append(t, v, options.chunkRangeMs(), options.samplesPerChunk(), chunks);
      }
    }
    if (verdict == MemSeries.OUT_OF_ORDER) {
      counters.outOfOrder.increment();
    } else if (verdict == MemSeries.DUPLICATE) {
      counters.duplicate.increment();
    }
    if (verdict != MemSeries.OK) {
      return Replayed.DROPPED;
    }
    counters.samplesAppended.increment();
    widenTimeRange(t, t);
    return Replayed.APPENDED;
  }

  /** Replay: whether a series record has named {@code ref} (an alias too). */
  public boolean replayKnows(long ref) {
    return replayed(ref) != null;
  }

  private MemSeries replayed(long ref) {
    MemSeries s = series.get(ref);
    return s != null ? s : replayAliases.get(ref);
  }

  /**
   * Replay: numbers series created from now on above {@code ref}. The log may name references whose
   * series record was lost to damage; a new series under such a reference would be credited with
   * their samples at the next replay.
   */
  public void reserveSeriesRefs(long ref) {
    if (ref > 0) {
      series.reserveIdsUpTo((int) Math.min(ref, Integer.MAX_VALUE - 1));
    }
  }

  /**
   * Replay: until {@link #endReplay()}, series are indexed without keeping the postings lists in id
   * order, and each list is sorted once at the end. A log's checkpoint lists series in this head's
   * table order, not by reference, and each insertion out of order would copy the list. The head
   * must not be queried until {@link #endReplay()} (queriers read the postings, which throw {@link
   * IllegalStateException} until then); appends and {@link #truncateBefore} may run.
   */
  public void beginReplay() {
    postings.startUnordered();
  }

  /** Sorts the postings if {@link #beginReplay()} was called and forgets replay aliases. */
  public void endReplay() {
    postings.ensureOrder();
    replayAliases.clear();
  }

  /**
   * Series added to the postings out of id order outside a replay, each of which copied a postings
   * list (for tests and profiles: replaying a log should make none).
   */
  public long postingsCopyingInserts() {
    return postings.copyingInserts();
  }

  /** Receives series for a checkpoint. */
  @FunctionalInterface
  public interface SeriesConsumer {
    void accept(long ref, Labels labels);
  }

  /** Every series in the head with its reference (for write-ahead log checkpoints); unordered. */
  public void forEachSeries(SeriesConsumer consumer) {
    series.forEach(s -> consumer.accept(s.id, s.labels));
  }

  /**
   * Drops chunks whose samples are all before {@code mint} and then series left without samples
   * (unless a transaction is still appending to them); raises the head's min time to {@code mint}
   * and the appendable window's start to at least {@code mint}. Call after a block up to {@code
   * mint} was written. Afterwards {@link #minTime()} is the earliest sample left, and at least
   * {@code mint} (even when the head holds no sample at or after it), as in Prometheus.
   *
   * @return the number of series removed
   */
  public int truncateBefore(long mint) {
    setMinValidTime(mint);
    Map<Integer, Labels> removed = new HashMap<>();
    List<MemSeries> gone = new ArrayList<>();
    // Read before the scan: appenders created from now on refuse samples before it.
    long window = appendableMinValidTime();
    long[] first = {Long.MAX_VALUE};
    series.forEach(
        s -> {
          synchronized (s) {
            s.truncateBefore(mint);
            if (s.isEmpty() && !s.hasPending()) {
              s.markRemoved();
              gone.add(s);
            } else {
              first[0] = Math.min(first[0], s.firstTime());
            }
          }
        });
    for (MemSeries s : gone) {
      series.remove(s);
      removed.put(s.id, s.labels);
    }
    postings.remove(removed);
    for (MemSeries s : gone) {
      interner.release(s.labels);
    }
    counters.seriesRemoved.add(gone.size());
    chunks.truncateBefore(mint); // after the series let go of the chunks it drops
    // As Prometheus (truncateMemory's actualMint): the head now starts at its earliest sample
    // left, and at least at mint. Compaction cuts blocks from the head's start, so after a gap in
    // the data (a restart after days) it goes on where the samples are rather than cutting an
    // empty block and a checkpoint per range in between. Not beyond the appendable window's start,
    // though: a commit racing this truncation may still add a sample there.
    long start = Math.max(mint, Math.min(first[0], window));
    minTime.accumulateAndGet(start, Math::max);
    return gone.size();
  }

  /** Distinct label strings held by the interner (for tests and stats). */
  int internedStrings() {
    return interner.size();
  }

  /**
   * Visits every series with samples in {@code [mint, maxt]}, sorted by labels, with its samples in
   * that range as encoded XOR chunks (for compaction into a block). Chunks wholly inside the range
   * are copied as they are; a chunk that crosses an end is re-encoded with only the samples inside.
   */
  public void exportChunks(long mint, long maxt, ChunkExport.Consumer consumer) {
    ChunkExport.run(this, mint, maxt, consumer);
  }

  List<MemSeries> allSeries() {
    List<MemSeries> out = new ArrayList<>(series.size());
    series.forEach(out::add);
    return out;
  }
}
