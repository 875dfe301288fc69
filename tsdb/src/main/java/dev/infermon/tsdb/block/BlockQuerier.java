package dev.infermon.tsdb.block;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.storage.Querier;
import dev.infermon.storage.SampleIterator;
import dev.infermon.storage.Series;
import dev.infermon.storage.SeriesSet;
import dev.infermon.tsdb.chunkenc.XorIterator;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * A {@link Querier} over one block. Series come in label order whether or not sorted output was
 * asked for (series ids are assigned in label order). Chunks are decoded lazily, one at a time, as
 * an iterator reaches them. Not thread-safe; holds a reference to the block until closed.
 */
final class BlockQuerier implements Querier {
  private final Block block;
  private final IndexReader index;
  private final BlockMeta meta;
  private boolean closed;

  BlockQuerier(Block block) {
    this.block = block;
    this.index = block.index();
    this.meta = block.meta();
  }

  @Override
  public SeriesSet select(boolean sorted, long mint, long maxt, List<Matcher> matchers) {
    checkOpen();
    checkMatchers(matchers);
    if (!meta.overlaps(mint, maxt)) {
      return SeriesSet.EMPTY;
    }
    return new BlockSeriesSet(block, Postings.forMatchers(index, matchers), mint, maxt);
  }

  /** False when the block's time range lies outside {@code [mint, maxt]}. */
  @Override
  public boolean mayHaveSamplesIn(long mint, long maxt) {
    return meta.overlaps(mint, maxt);
  }

  /** Every series with data in {@code [mint, maxt]}, sorted: the input of compaction. */
  SeriesSet selectAll(long mint, long maxt) {
    checkOpen();
    return new BlockSeriesSet(block, index.allPostings(), mint, maxt);
  }

  static void checkMatchers(List<Matcher> matchers) {
    if (matchers == null || matchers.isEmpty()) {
      throw new IllegalArgumentException("select needs at least one matcher");
    }
    for (Matcher m : matchers) {
      if (!m.matchesEmpty()) {
        return;
      }
    }
    throw new IllegalArgumentException("every matcher matches the empty string: " + matchers);
  }

  @Override
  public List<String> labelValues(String name, long mint, long maxt, List<Matcher> matchers) {
    checkOpen();
    if (!meta.overlaps(mint, maxt)) {
      return List.of();
    }
    if (matchers == null || matchers.isEmpty()) {
      return index.labelValues(name);
    }
    TreeSet<String> out = new TreeSet<>();
    IndexReader.SeriesEntry e = new IndexReader.SeriesEntry();
    for (int id : Postings.forMatchers(index, matchers)) {
      index.series(id, e, false);
      String v = e.labels.get(name);
      if (!v.isEmpty()) {
        out.add(v);
      }
    }
    return List.copyOf(out);
  }

  @Override
  public List<String> labelNames(long mint, long maxt, List<Matcher> matchers) {
    checkOpen();
    if (!meta.overlaps(mint, maxt)) {
      return List.of();
    }
    if (matchers == null || matchers.isEmpty()) {
      return index.labelNames();
    }
    TreeSet<String> out = new TreeSet<>();
    IndexReader.SeriesEntry e = new IndexReader.SeriesEntry();
    for (int id : Postings.forMatchers(index, matchers)) {
      index.series(id, e, false);
      out.addAll(e.labels.names());
    }
    return List.copyOf(out);
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      block.release();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("querier of " + block + " is closed");
    }
  }

  /** Series of the given ids that have a chunk overlapping {@code [mint, maxt]}. */
  private static final class BlockSeriesSet implements SeriesSet {
    private final Block block;
    private final int[] ids;
    private final long mint;
    private final long maxt;
    private final IndexReader.SeriesEntry entry = new IndexReader.SeriesEntry();
    private int i = -1;
    private Series at;

    BlockSeriesSet(Block block, int[] ids, long mint, long maxt) {
      this.block = block;
      this.ids = ids;
      this.mint = mint;
      this.maxt = maxt;
    }

    @Override
    public boolean next() {
      while (++i < ids.length) {
        block.index().series(ids[i], entry, true);
        long[] c = entry.chunks;
        int first = -1;
        int last = -1;
        for (int k = 0; k < entry.nChunks; k++) {
          if (c[3 * k] <= maxt && c[3 * k + 1] >= mint) {
            if (first < 0) {
              first = k;
            }
            last = k;
          }
        }
        if (first < 0) {
          continue;
        }
        long[] sel = Arrays.copyOfRange(c, 3 * first, 3 * (last + 1));
        if (!containsWholeChunk(sel)
            && !new ChunksIterator(block.chunks(), sel, mint, maxt).next()) {
          continue; // chunks overlap the range but no sample falls inside it
        }
        at = new BlockSeries(block, entry.labels, sel, mint, maxt);
        return true;
      }
      at = null;
      return false;
    }

    private boolean containsWholeChunk(long[] sel) {
      for (int k = 0; k < sel.length; k += 3) {
        if (sel[k] >= mint && sel[k + 1] <= maxt) {
          return true;
        }
      }
      return false;
    }

    @Override
    public Series at() {
      if (at == null) {
        throw new IllegalStateException("no current series: call next() first");
      }
      return at;
    }
  }

  private record BlockSeries(Block block, Labels labels, long[] chunks, long mint, long maxt)
      implements Series {
    @Override
    public SampleIterator iterator() {
      return new ChunksIterator(block.chunks(), chunks, mint, maxt);
    }
  }

  /** Reads a series' chunks in order, yielding only samples in {@code [mint, maxt]}. */
  static final class ChunksIterator implements SampleIterator {
    private final ChunkReader reader;
    private final long[] chunks; // (mint, maxt, ref) triples
    private final int n;
    private final long mint;
    private final long maxt;
    private final int[] len = new int[2];
    private byte[] buf = new byte[256];
    private SampleIterator it;
    private XorIterator xor;
    private IntChunk.Iterator ints;
    private int chunk = -1;
    private boolean positioned;
    private boolean done;

    /** The current chunk lies wholly inside {@code [mint, maxt]}: its samples need no checks. */
    private boolean inside;

    /** Timestamp of the current sample, cached: merges read it once per sample and source. */
    private long t;

    ChunksIterator(ChunkReader reader, long[] chunks, long mint, long maxt) {
      this.reader = reader;
      this.chunks = chunks;
      this.n = chunks.length / 3;
      this.mint = mint;
      this.maxt = maxt;
    }

    @Override
    public boolean next() {
      if (inside) {
        if (it.next()) {
          t = it.timestamp();
          return true;
        }
        if (!openChunk(chunk + 1)) {
          return finish();
        }
        return advanceTo(mint);
      }
      if (done) {
        return false;
      }
      if (chunk < 0 && !openChunk(0)) {
        return finish();
      }
      return advanceTo(mint);
    }

    @Override
    public boolean seek(long t) {
      if (done) {
        return false;
      }
      if (positioned && this.t >= t) {
        return true;
      }
      long target = Math.max(t, mint);
      int k = Math.max(chunk, 0);
      while (k < n && chunks[3 * k + 1] < target) {
        k++; // the whole chunk ends before the target: skip it undecoded
      }
      if (k >= n) {
        return finish();
      }
      if (k != chunk) {
        openChunk(k);
      }
      return advanceTo(target);
    }

    @Override
    public int nextBatch(long[] ts, double[] vs, int off, int len, long maxt) {
      int k = 0;
      while (k < len) {
        if (!(inside && positioned)) {
          // A chunk that straddles the range's ends, or not yet started: the ordinary way.
          int s = SampleIterator.nextInto(this, ts, vs, off + k, maxt);
          if (s <= 0) {
            return s < 0 ? ~k : k;
          }
          k++;
          continue;
        }
        // The chunk lies inside [mint, maxt] of the iterator: only the caller's maxt matters.
        int r = it.nextBatch(ts, vs, off + k, len - k, maxt);
        int got = r < 0 ? ~r : r;
        if (got > 0) {
          k += got;
          t = ts[off + k - 1];
        }
        if (r < 0) {
          // The chunk ran out: next() opens the following one (its iterator stays exhausted).
          int s = SampleIterator.nextInto(this, ts, vs, off + k, maxt);
          if (s <= 0) {
            return s < 0 ? ~k : k;
          }
          k++;
          continue;
        }
        if (k < len) {
          t = it.timestamp(); // on the first sample after the caller's maxt, still in range
        }
        return k;
      }
      return k;
    }

    /** Moves to the next sample at or after {@code target}, across chunks. */
    private boolean advanceTo(long target) {
      while (true) {
        if (it.next()) {
          long ts = it.timestamp();
          if (ts < target) {
            continue;
          }
          if (ts > maxt) {
            return finish();
          }
          t = ts;
          positioned = true;
          return true;
        }
        if (!openChunk(chunk + 1)) {
          return finish();
        }
      }
    }

    private boolean openChunk(int k) {
      if (k >= n) {
        return false;
      }
      chunk = k;
      buf = reader.read(chunks[3 * k + 2], buf, len);
      try {
        if (len[1] == ChunkFormat.ENCODING_INT) {
          if (ints == null) {
            ints = new IntChunk.Iterator();
          }
          ints.reset(buf, len[0]);
          it = ints;
        } else {
          if (xor == null) {
            xor = XorIterator.over(buf, 0, len[0]);
          } else {
            xor.reset(buf, 0, len[0]);
          }
          it = xor;
        }
      } catch (dev.infermon.tsdb.encoding.CorruptDataException e) {
        throw new CorruptBlockException("chunk " + chunks[3 * k + 2] + ": " + e.getMessage(), e);
      }
      positioned = false;
      inside = chunks[3 * k] >= mint && chunks[3 * k + 1] <= maxt;
      return true;
    }

    private boolean finish() {
      done = true;
      positioned = false;
      inside = false;
      return false;
    }

    @Override
    public long timestamp() {
      return t;
    }

    @Override
    public double value() {
      return it.value();
    }
  }
}
