package dev.infermon.tsdb.block;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.encoding.CorruptDataException;
import dev.infermon.tsdb.encoding.DecodingBuffer;
import dev.infermon.tsdb.fileutil.MappedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a block's index file through a memory map. Opening reads and verifies the table of
 * contents, the symbol table and the postings offset table (kept in memory: they are small and
 * consulted by every query); series entries and postings lists are read from the map on demand,
 * each verified against its CRC32C.
 *
 * <p>Threading: immutable after open; safe for concurrent readers.
 */
final class IndexReader {
  private final MappedFile file;
  private final String[] symbols;
  private final Map<String, ValueTable> table;
  private final List<String> labelNames;
  private final long allPostingsOffset;
  private final long seriesStart;
  private final long postingsStart;

  /** Sorted values of one label name and the offsets of their postings lists. */
  private record ValueTable(String[] values, long[] offsets) {}

  private IndexReader(
      MappedFile file,
      String[] symbols,
      Map<String, ValueTable> table,
      long allPostingsOffset,
      long seriesStart,
      long postingsStart) {
    this.file = file;
    this.symbols = symbols;
    this.table = table;
    List<String> names = new ArrayList<>(table.keySet());
    Collections.sort(names);
    this.labelNames = List.copyOf(names);
    this.allPostingsOffset = allPostingsOffset;
    this.seriesStart = seriesStart;
    this.postingsStart = postingsStart;
  }

  /**
   * Maps and checks the index.
   *
   * @throws CorruptBlockException naming the file and the section that does not read
   */
  static IndexReader open(Path path) throws IOException {
    MappedFile f = MappedFile.open(path);
    try {
      return read(f);
    } catch (CorruptDataException | IllegalArgumentException e) {
      throw new CorruptBlockException(path + ": " + e.getMessage(), e);
    }
  }

  private static IndexReader read(MappedFile f) {
    long len = f.length();
    if (len < IndexFormat.HEADER_SIZE + IndexFormat.TOC_SIZE) {
      throw new CorruptDataException("too short for header and table of contents: " + len);
    }
    ByteBuffer h = f.slice(0, IndexFormat.HEADER_SIZE);
    if (h.getInt(0) != IndexFormat.MAGIC) {
      throw new CorruptDataException(String.format("bad magic 0x%08x", h.getInt(0)));
    }
    if ((h.get(4) & 0xFF) != IndexFormat.VERSION) {
      throw new CorruptDataException("unsupported version " + (h.get(4) & 0xFF));
    }
    ByteBuffer tb = f.slice(len - IndexFormat.TOC_SIZE, IndexFormat.TOC_SIZE);
    DecodingBuffer toc = new DecodingBuffer(tb, "table of contents");
    if (toc.crc32c(0, 32) != tb.getInt(32)) {
      throw new CorruptDataException("table of contents: checksum mismatch");
    }
    long symbolsOff = toc.getBE64();
    long seriesOff = toc.getBE64();
    long postingsOff = toc.getBE64();
    long tableOff = toc.getBE64();
    long tocStart = len - IndexFormat.TOC_SIZE;
    if (!(IndexFormat.HEADER_SIZE <= symbolsOff
        && symbolsOff < seriesOff
        && seriesOff <= postingsOff
        && postingsOff < tableOff
        && tableOff < tocStart)) {
      throw new CorruptDataException(
          "table of contents: section offsets out of order: "
              + Arrays.toString(new long[] {symbolsOff, seriesOff, postingsOff, tableOff}));
    }

    DecodingBuffer sym = section(f, symbolsOff, tocStart, "symbol table");
    int n = sym.getBE32();
    if (n < 0 || n > sym.remaining()) {
      throw sym.corrupt("symbol count " + n + " exceeds section");
    }
    String[] symbols = new String[n];
    for (int i = 0; i < n; i++) {
      symbols[i] = sym.getUvarintString();
    }

    DecodingBuffer t = section(f, tableOff, tocStart, "postings offset table");
    int entries = t.getBE32();
    if (entries < 1 || entries > t.remaining()) {
      throw t.corrupt("entry count " + entries + " out of range");
    }
    Map<String, List<String>> values = new HashMap<>();
    Map<String, List<Long>> offsets = new HashMap<>();
    long allOff = -1;
    for (int i = 0; i < entries; i++) {
      String name = t.getUvarintString();
      String value = t.getUvarintString();
      long off = t.getUvarint();
      if (off < postingsOff || off >= tableOff) {
        throw t.corrupt("postings offset " + off + " outside the postings section");
      }
      if (name.isEmpty()) {
        allOff = off;
        continue;
      }
      values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
      offsets.computeIfAbsent(name, k -> new ArrayList<>()).add(off);
    }
    if (allOff < 0) {
      throw t.corrupt("no list of all postings");
    }
    Map<String, ValueTable> table = new HashMap<>(values.size() * 2);
    for (Map.Entry<String, List<String>> e : values.entrySet()) {
      List<Long> offs = offsets.get(e.getKey());
      long[] o = new long[offs.size()];
      for (int i = 0; i < o.length; i++) {
        o[i] = offs.get(i);
      }
      String[] v = e.getValue().toArray(new String[0]);
      for (int i = 1; i < v.length; i++) {
        if (v[i - 1].compareTo(v[i]) >= 0) {
          throw t.corrupt("values of label " + e.getKey() + " not sorted");
        }
      }
      table.put(e.getKey(), new ValueTable(v, o));
    }
    return new IndexReader(f, symbols, table, allOff, seriesOff, postingsOff);
  }

  /** A section {@code len<4> body<len> crc32c<4>}, checked; returns a reader of the body. */
  private static DecodingBuffer section(MappedFile f, long off, long limit, String what) {
    if (off + 8 > limit) {
      throw new CorruptDataException(what + ": offset " + off + " past the end");
    }
    int len = f.slice(off, 4).getInt(0);
    if (len < 0 || off + 4 + len + 4 > limit) {
      throw new CorruptDataException(what + ": length " + len + " overruns the file");
    }
    ByteBuffer b = f.slice(off + 4, len + 4);
    if (new DecodingBuffer(b, what).crc32c(0, len) != b.getInt(len)) {
      throw new CorruptDataException(what + " at offset " + off + ": checksum mismatch");
    }
    return new DecodingBuffer(f.slice(off + 4, len), f.path() + ": " + what);
  }

  Path path() {
    return file.path();
  }

  long size() {
    return file.length();
  }

  int symbolCount() {
    return symbols.length;
  }

  /** Label names in sorted order. */
  List<String> labelNames() {
    return labelNames;
  }

  /** Sorted values of a label name (empty when absent). */
  List<String> labelValues(String name) {
    ValueTable vt = table.get(name);
    return vt == null ? List.of() : Arrays.asList(vt.values.clone());
  }

  /** The values array of a name, not copied; callers must not modify it. */
  String[] values(String name) {
    ValueTable vt = table.get(name);
    return vt == null ? new String[0] : vt.values;
  }

  /** Sorted ids of the series with label {@code name="value"} (empty when none). */
  int[] postings(String name, String value) {
    ValueTable vt = table.get(name);
    if (vt == null) {
      return new int[0];
    }
    int i = Arrays.binarySearch(vt.values, value);
    return i < 0 ? new int[0] : readPostings(vt.offsets[i]);
  }

  /** Sorted ids of every series. */
  int[] allPostings() {
    return readPostings(allPostingsOffset);
  }

  private int[] readPostings(long off) {
    try {
      DecodingBuffer d = section(file, off, file.length() - IndexFormat.TOC_SIZE, "postings");
      int n = d.getBE32();
      if (n < 0 || n * 4L != d.remaining()) {
        throw d.corrupt("postings count " + n + " does not match length");
      }
      int[] ids = new int[n];
      for (int i = 0; i < n; i++) {
        ids[i] = d.getBE32();
      }
      return ids;
    } catch (CorruptDataException e) {
      throw new CorruptBlockException(file.path() + ": " + e.getMessage(), e);
    }
  }

  /** A series entry read into reusable storage. Not thread-safe. */
  static final class SeriesEntry {
    Labels labels;
    long[] chunks = new long[3 * 8]; // (mint, maxt, ref) triples
    int nChunks;
  }

  /**
   * Reads series {@code id} into {@code into}.
   *
   * @param readChunks false to skip the chunk metas (label-only lookups)
   * @throws CorruptBlockException naming the file when the entry does not read
   */
  void series(int id, SeriesEntry into, boolean readChunks) {
    long off = (long) id * IndexFormat.SERIES_ALIGNMENT;
    try {
      if (off < seriesStart || off >= postingsStart) {
        throw new CorruptDataException("series id " + id + " outside the series section");
      }
      DecodingBuffer lenBuf =
          new DecodingBuffer(file.slice(off, (int) Math.min(10, postingsStart - off)), "series");
      int len = lenBuf.getUvarintInt();
      int head = lenBuf.position();
      if (off + head + len + 4 > postingsStart) {
        throw new CorruptDataException("series " + id + " overruns its section");
      }
      ByteBuffer b = file.slice(off + head, len + 4);
      DecodingBuffer d = new DecodingBuffer(b, "series " + id);
      if (d.crc32c(0, len) != b.getInt(len)) {
        throw new CorruptDataException(
            "series " + id + " at offset " + off + ": checksum mismatch");
      }
      d = new DecodingBuffer(b.limit(len), "series " + id);
      int nl = d.getUvarintInt();
      if (nl > len) {
        throw d.corrupt("label count " + nl + " exceeds entry");
      }
      String[] names = new String[nl];
      String[] values = new String[nl];
      for (int i = 0; i < nl; i++) {
        names[i] = symbol(d);
        values[i] = symbol(d);
      }
      into.labels = Labels.fromSortedNamesAndValues(names, values);
      if (!readChunks) {
        return;
      }
      int nc = d.getUvarintInt();
      if (nc > len) {
        throw d.corrupt("chunk count " + nc + " exceeds entry");
      }
      if (into.chunks.length < 3 * nc) {
        into.chunks = new long[3 * nc];
      }
      long[] c = into.chunks;
      long prevMaxt = 0;
      long prevRef = 0;
      for (int i = 0; i < nc; i++) {
        long mint;
        long ref;
        if (i == 0) {
          mint = d.getVarint();
          c[1] = mint + d.getUvarint();
          ref = d.getUvarint();
        } else {
          mint = prevMaxt + d.getUvarint();
          c[3 * i + 1] = mint + d.getUvarint();
          ref = prevRef + d.getVarint();
        }
        c[3 * i] = mint;
        c[3 * i + 2] = ref;
        prevMaxt = c[3 * i + 1];
        prevRef = ref;
      }
      into.nChunks = nc;
    } catch (CorruptDataException | IllegalArgumentException e) {
      throw new CorruptBlockException(file.path() + ": " + e.getMessage(), e);
    }
  }

  private String symbol(DecodingBuffer d) {
    int s = d.getUvarintInt();
    if (s >= symbols.length) {
      throw d.corrupt("symbol reference " + s + " out of range");
    }
    return symbols[s];
  }
}
