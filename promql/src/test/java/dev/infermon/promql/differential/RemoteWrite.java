package dev.infermon.promql.differential;

import dev.infermon.model.labels.Labels;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Encodes a remote-write 1.0 {@code WriteRequest} (protobuf, snappy block format) by hand: the one
 * way to give Prometheus staleness markers, whose NaN payload a text format cannot carry. The
 * snappy "compression" is a single literal, which every decoder accepts. Not thread-safe.
 */
final class RemoteWrite {
  private final ByteArrayOutputStream request = new ByteArrayOutputStream();

  /** Adds one series with its samples (values written bit for bit, payload included). */
  void add(Labels labels, long[] t, double[] v, int from, int to) {
    ByteArrayOutputStream ts = new ByteArrayOutputStream();
    for (int i = 0; i < labels.size(); i++) {
      ByteArrayOutputStream label = new ByteArrayOutputStream();
      bytesField(label, 1, labels.name(i).getBytes(StandardCharsets.UTF_8));
      bytesField(label, 2, labels.value(i).getBytes(StandardCharsets.UTF_8));
      bytesField(ts, 1, label.toByteArray());
    }
    for (int i = from; i < to; i++) {
      ByteArrayOutputStream sample = new ByteArrayOutputStream();
      sample.write(1 << 3 | 1); // field 1, 64-bit
      long bits = Double.doubleToRawLongBits(v[i]);
      for (int b = 0; b < 8; b++) {
        sample.write((int) (bits >>> (8 * b)) & 0xff);
      }
      sample.write(2 << 3); // field 2, varint
      varint(sample, t[i]);
      bytesField(ts, 2, sample.toByteArray());
    }
    bytesField(request, 1, ts.toByteArray());
  }

  /** The snappy-framed request body. */
  byte[] body() {
    byte[] raw = request.toByteArray();
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length + 16);
    varint(out, raw.length);
    if (raw.length > 0) {
      // A literal with a 4-byte little-endian length - 1 (tag 63 << 2).
      out.write(63 << 2);
      long len = raw.length - 1L;
      for (int b = 0; b < 4; b++) {
        out.write((int) (len >>> (8 * b)) & 0xff);
      }
      out.write(raw, 0, raw.length);
    }
    return out.toByteArray();
  }

  private static void bytesField(ByteArrayOutputStream out, int field, byte[] bytes) {
    out.write(field << 3 | 2);
    varint(out, bytes.length);
    out.write(bytes, 0, bytes.length);
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }
}
