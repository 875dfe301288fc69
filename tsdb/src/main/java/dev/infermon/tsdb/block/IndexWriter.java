package dev.infermon.tsdb.block;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.encoding.EncodingBuffer;
import dev.infermon.tsdb.fileutil.ChannelIo;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * Writes a block's index file in one pass: the symbol table (given up front, sorted), then series
 * in label order, then a postings list per label pair, the postings offset table, and the table of
 * contents. Postings are gathered in memory while series are written (one int per label per
 * series). Not thread-safe.
 */
final class IndexWriter implements AutoCloseable {
  private final Path file;
  private final OutputStream out;
  private final EncodingBuffer buf = new EncodingBuffer(4096);
  private final Map<String, Integer> symbolIds;
  private final TreeMap<String, TreeMap<String, IntList>> postings = new TreeMap<>();
  private final IntList all = new IntList();
  private long pos;
  private long symbolsOffset;
  private long seriesOffset;
  private Labels last;

  /**
   * Starts an index and writes its symbol table.
   *
   * @param symbols every label name and value the series will use
   */
  IndexWriter(Path file, SortedSet<String> symbols) throws IOException {
    this.file = file;
    this.out = new BufferedOutputStream(ChannelIo.sliced(Files.newOutputStream(file)), 1 << 16);
    buf.putBE32(IndexFormat.MAGIC);
    buf.putByte(IndexFormat.VERSION);
    buf.putByte(0);
    buf.putBE16(0);
    flush();
    symbolIds = new java.util.HashMap<>(symbols.size() * 2);
    symbolsOffset = pos;
    buf.putBE32(0); // length, set below
    buf.putBE32(symbols.size());
    int id = 0;
    for (String s : symbols) {
      symbolIds.put(s, id++);
      buf.putUvarintString(s);
    }
    endSection();
    seriesOffset = -1;
  }

  /**
   * Adds a series; series must come in strictly increasing label order.
   *
   * @param chunkMetas triples {@code (mint, maxt, ref)} of its chunks, in time order
   */
  void addSeries(Labels labels, long[] chunkMetas, int nChunks) throws IOException {
    if (last != null && last.compareTo(labels) >= 0) {
      throw new IllegalStateException("series out of order: " + labels + " after " + last);
    }
    last = labels;
    alignTo(IndexFormat.SERIES_ALIGNMENT);
    if (seriesOffset < 0) {
      seriesOffset = pos;
    }
    long id = pos / IndexFormat.SERIES_ALIGNMENT;
    if (id > Integer.MAX_VALUE) {
      throw new IOException(file + ": index too large for 32-bit series ids");
    }
    EncodingBuffer body = new EncodingBuffer(64 + nChunks * 12);
    body.putUvarint(labels.size());
    for (int i = 0; i < labels.size(); i++) {
      body.putUvarint(symbol(labels.name(i)));
      body.putUvarint(symbol(labels.value(i)));
      postings
          .computeIfAbsent(labels.name(i), k -> new TreeMap<>())
          .computeIfAbsent(labels.value(i), k -> new IntList())
          .add((int) id);
    }
    all.add((int) id);
    body.putUvarint(nChunks);
    long prevMaxt = 0;
    long prevRef = 0;
    for (int c = 0; c < nChunks; c++) {
      long mint = chunkMetas[3 * c];
      long maxt = chunkMetas[3 * c + 1];
      long ref = chunkMetas[3 * c + 2];
      if (c == 0) {
        body.putVarint(mint);
        body.putUvarint(maxt - mint);
        body.putUvarint(ref);
      } else {
        body.putUvarint(mint - prevMaxt);
        body.putUvarint(maxt - mint);
        body.putVarint(ref - prevRef);
      }
      prevMaxt = maxt;
      prevRef = ref;
    }
    buf.putUvarint(body.length());
    buf.putBytes(body.array(), 0, body.length());
    buf.putBE32(body.crc32c(0));
    flush();
  }

  private int symbol(String s) {
    Integer id = symbolIds.get(s);
    if (id == null) {
      throw new IllegalStateException("label string missing from the symbol table: " + s);
    }
    return id;
  }

  /** Writes postings, the offset table and the table of contents, and closes the file. */
  @Override
  public void close() throws IOException {
    if (seriesOffset < 0) {
      seriesOffset = pos;
    }
    alignTo(4);
    long postingsOffset = pos;
    List<String[]> keys = new ArrayList<>();
    List<Long> offsets = new ArrayList<>();
    keys.add(new String[] {IndexFormat.ALL_POSTINGS_KEY, IndexFormat.ALL_POSTINGS_KEY});
    offsets.add(pos);
    writePostings(all);
    for (Map.Entry<String, TreeMap<String, IntList>> n : postings.entrySet()) {
      for (Map.Entry<String, IntList> v : n.getValue().entrySet()) {
        keys.add(new String[] {n.getKey(), v.getKey()});
        offsets.add(pos);
        writePostings(v.getValue());
      }
    }
    long tableOffset = pos;
    buf.putBE32(0);
    buf.putBE32(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      buf.putUvarintString(keys.get(i)[0]);
      buf.putUvarintString(keys.get(i)[1]);
      buf.putUvarint(offsets.get(i));
    }
    endSection();
    int tocStart = buf.length();
    buf.putBE64(symbolsOffset);
    buf.putBE64(seriesOffset);
    buf.putBE64(postingsOffset);
    buf.putBE64(tableOffset);
    buf.putBE32(buf.crc32c(tocStart));
    flush();
    out.close();
  }

  private void writePostings(IntList ids) throws IOException {
    buf.putBE32(0);
    buf.putBE32(ids.size);
    for (int i = 0; i < ids.size; i++) {
      buf.putBE32(ids.data[i]);
    }
    endSection();
  }

  /** Sets the 4-byte length at the start of the buffer and appends the CRC of the body. */
  private void endSection() throws IOException {
    int bodyLen = buf.length() - 4;
    buf.setBE32(0, bodyLen);
    buf.putBE32(buf.crc32c(4));
    flush();
  }

  /** Pads the file with zero bytes; the buffer is empty between entries. */
  private void alignTo(int n) throws IOException {
    while (pos % n != 0) {
      out.write(0);
      pos++;
    }
  }

  private void flush() throws IOException {
    out.write(buf.array(), 0, buf.length());
    pos += buf.length();
    buf.reset();
  }

  /** A growable int array. */
  static final class IntList {
    int[] data = new int[4];
    int size;

    void add(int v) {
      if (size == data.length) {
        data = Arrays.copyOf(data, size * 2);
      }
      data[size++] = v;
    }
  }
}
