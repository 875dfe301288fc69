package dev.infermon.tsdb.wal;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.encoding.DecodingBuffer;
import dev.infermon.tsdb.encoding.EncodingBuffer;

/**
 * Encodes and decodes record payloads ({@code docs/format/wal.md}). Series records carry series
 * references with their labels; sample records carry {@code (ref, t, v)} triples with the reference
 * and timestamp delta-encoded against the previous triple, because a commit is usually one scrape:
 * consecutive references and one timestamp, so both deltas take one byte.
 */
final class WalRecords {
  private WalRecords() {}

  /** Writes a series record's payload: type, count, then {@code ref, labels} per series. */
  static void encodeSeries(EncodingBuffer b, long[] refs, Labels[] labels, int n) {
    b.putByte(WalFormat.RECORD_SERIES);
    b.putUvarint(n);
    for (int i = 0; i < n; i++) {
      b.putUvarint(refs[i]);
      Labels ls = labels[i];
      b.putUvarint(ls.size());
      for (int j = 0; j < ls.size(); j++) {
        b.putUvarintString(ls.name(j));
        b.putUvarintString(ls.value(j));
      }
    }
  }

  /** Writes a samples record's payload: type, count, then delta-encoded triples. */
  static void encodeSamples(EncodingBuffer b, long[] refs, long[] ts, double[] vs, int n) {
    b.putByte(WalFormat.RECORD_SAMPLES);
    b.putUvarint(n);
    long prevRef = 0;
    long prevT = 0;
    for (int i = 0; i < n; i++) {
      b.putVarint(refs[i] - prevRef);
      b.putVarint(ts[i] - prevT);
      b.putDouble(vs[i]);
      prevRef = refs[i];
      prevT = ts[i];
    }
  }

  /** Receives decoded records. */
  interface Visitor {
    void series(long ref, Labels labels);

    void sample(long ref, long t, double v);
  }

  /**
   * Decodes one payload and feeds it to {@code v}.
   *
   * @throws dev.infermon.tsdb.encoding.CorruptDataException when the payload does not decode
   */
  static void decode(DecodingBuffer d, Visitor v) {
    int type = d.getByte();
    switch (type) {
      case WalFormat.RECORD_SERIES:
        decodeSeries(d, v);
        break;
      case WalFormat.RECORD_SAMPLES:
        decodeSamples(d, v);
        break;
      default:
        throw d.corrupt("unknown record type " + type);
    }
    if (d.remaining() != 0) {
      throw d.corrupt(d.remaining() + " trailing bytes after record of type " + type);
    }
  }

  private static void decodeSeries(DecodingBuffer d, Visitor v) {
    int n = d.getUvarintInt();
    for (int i = 0; i < n; i++) {
      long ref = d.getUvarint();
      int nl = d.getUvarintInt();
      if (nl > d.remaining() / 2) {
        throw d.corrupt("label count " + nl + " exceeds record");
      }
      String[] names = new String[nl];
      String[] values = new String[nl];
      for (int j = 0; j < nl; j++) {
        names[j] = d.getUvarintString();
        values[j] = d.getUvarintString();
      }
      Labels labels;
      try {
        labels = Labels.fromSortedNamesAndValues(names, values);
      } catch (IllegalArgumentException e) {
        throw d.corrupt("series " + ref + ": " + e.getMessage());
      }
      v.series(ref, labels);
    }
  }

  private static void decodeSamples(DecodingBuffer d, Visitor v) {
    int n = d.getUvarintInt();
    long ref = 0;
    long t = 0;
    for (int i = 0; i < n; i++) {
      ref += d.getVarint();
      t += d.getVarint();
      v.sample(ref, t, d.getDouble());
    }
  }
}
