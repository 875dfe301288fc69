package dev.infermon.remote.prompb;

import com.google.protobuf.CodedOutputStream;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.metadata.MetricType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.xerial.snappy.Snappy;

/**
 * Encodes remote-write 1.0 requests ({@code prompb/remote.proto}, {@code prompb/types.proto}):
 *
 * <pre>
 * WriteRequest   { repeated TimeSeries timeseries = 1; repeated MetricMetadata metadata = 3; }
 * TimeSeries     { repeated Label labels = 1; repeated Sample samples = 2; }
 * Label          { string name = 1; string value = 2; }
 * Sample         { double value = 1; int64 timestamp = 2; }
 * MetricMetadata { MetricType type = 1; string metric_family_name = 2; string help = 4; string unit = 5; }
 * </pre>
 *
 * <p>Each sample becomes a {@code TimeSeries} of its own, as Prometheus sends them: the batch keeps
 * arrival order (so per-series order) without grouping, and snappy removes the repeated labels.
 * Fields at their proto3 default (0, empty) are omitted, as generated encoders do; a staleness
 * marker is a NaN, never a default, so it always travels bit for bit.
 *
 * <p>Not thread-safe: an encoder reuses its buffers; use one per sending thread. The returned
 * arrays belong to the caller.
 */
public final class WriteRequestEncoder {
  /** Content-Type of a remote-write 1.0 body. */
  public static final String CONTENT_TYPE = "application/x-protobuf";

  /** Value of the {@code X-Prometheus-Remote-Write-Version} header for 1.0. */
  public static final String VERSION = "0.1.0";

  private static final int TS_LABELS = 1;
  private static final int TS_SAMPLES = 2;
  private static final int REQ_TIMESERIES = 1;
  private static final int REQ_METADATA = 3;

  private byte[] raw = new byte[64 * 1024];

  /** The last uncompressed size, for metrics and tests. */
  private int lastRawSize;

  /**
   * Encodes {@code n} samples (one {@code TimeSeries} each) and compresses the request.
   *
   * @return the snappy block-format body
   */
  public byte[] encodeSamples(Labels[] labels, long[] timestamps, double[] values, int n) {
    if (n < 0 || n > labels.length || n > timestamps.length || n > values.length) {
      throw new IllegalArgumentException("sample count " + n + " exceeds the arrays given");
    }
    int total = 0;
    for (int i = 0; i < n; i++) {
      int ts = timeSeriesSize(labels[i], timestamps[i], values[i]);
      total += tagAndLength(REQ_TIMESERIES, ts);
    }
    ensure(total);
    CodedOutputStream out = CodedOutputStream.newInstance(raw, 0, total);
    try {
      for (int i = 0; i < n; i++) {
        Labels l = labels[i];
        int ts = timeSeriesSize(l, timestamps[i], values[i]);
        out.writeTag(REQ_TIMESERIES, 2);
        out.writeUInt32NoTag(ts);
        for (int j = 0; j < l.size(); j++) {
          out.writeTag(TS_LABELS, 2);
          out.writeUInt32NoTag(labelSize(l.name(j), l.value(j)));
          writeString(out, 1, l.name(j));
          writeString(out, 2, l.value(j));
        }
        out.writeTag(TS_SAMPLES, 2);
        out.writeUInt32NoTag(sampleSize(timestamps[i], values[i]));
        writeSample(out, timestamps[i], values[i]);
      }
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new IllegalStateException("size computation and encoding disagree", e);
    }
    return compress(total);
  }

  /** Encodes metadata only (what Prometheus sends every {@code metadata_config.send_interval}). */
  public byte[] encodeMetadata(List<FamilyMetadata> metadata) {
    int total = 0;
    for (FamilyMetadata m : metadata) {
      total += tagAndLength(REQ_METADATA, metadataSize(m));
    }
    ensure(total);
    CodedOutputStream out = CodedOutputStream.newInstance(raw, 0, total);
    try {
      for (FamilyMetadata m : metadata) {
        out.writeTag(REQ_METADATA, 2);
        out.writeUInt32NoTag(metadataSize(m));
        int type = typeNumber(m.metadata().type());
        if (type != 0) {
          out.writeEnum(1, type);
        }
        writeString(out, 2, m.family());
        writeString(out, 4, m.metadata().help());
        writeString(out, 5, m.metadata().unit());
      }
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new IllegalStateException("size computation and encoding disagree", e);
    }
    return compress(total);
  }

  /** Uncompressed size of the last request encoded. */
  public int lastRawSize() {
    return lastRawSize;
  }

  /** One family's metadata as remote write carries it. */
  public record FamilyMetadata(String family, Metadata metadata) {
    public FamilyMetadata {
      if (family == null || family.isEmpty()) {
        throw new IllegalArgumentException("metric family name must not be empty");
      }
      if (metadata == null) {
        throw new IllegalArgumentException("metadata of " + family + " must not be null");
      }
    }
  }

  /** prompb's {@code MetricMetadata.MetricType} number of a type. */
  static int typeNumber(MetricType t) {
    switch (t) {
      case COUNTER:
        return 1;
      case GAUGE:
        return 2;
      case HISTOGRAM:
        return 3;
      case GAUGEHISTOGRAM:
        return 4;
      case SUMMARY:
        return 5;
      case INFO:
        return 6;
      case STATESET:
        return 7;
      default:
        return 0;
    }
  }

  private byte[] compress(int total) {
    lastRawSize = total;
    try {
      byte[] out = new byte[Snappy.maxCompressedLength(total)];
      int len = Snappy.compress(raw, 0, total, out, 0);
      return java.util.Arrays.copyOf(out, len);
    } catch (IOException e) {
      throw new UncheckedIOException("snappy compression failed", e);
    }
  }

  private void ensure(int size) {
    if (raw.length < size) {
      raw = new byte[Math.max(size, raw.length * 2)];
    }
  }

  private static int timeSeriesSize(Labels l, long t, double v) {
    int size = 0;
    for (int j = 0; j < l.size(); j++) {
      size += tagAndLength(TS_LABELS, labelSize(l.name(j), l.value(j)));
    }
    return size + tagAndLength(TS_SAMPLES, sampleSize(t, v));
  }

  private static int metadataSize(FamilyMetadata m) {
    int type = typeNumber(m.metadata().type());
    return (type == 0 ? 0 : CodedOutputStream.computeEnumSize(1, type))
        + stringSize(2, m.family())
        + stringSize(4, m.metadata().help())
        + stringSize(5, m.metadata().unit());
  }

  private static int tagAndLength(int field, int length) {
    return CodedOutputStream.computeTagSize(field)
        + CodedOutputStream.computeUInt32SizeNoTag(length)
        + length;
  }

  private static int labelSize(String name, String value) {
    return stringSize(1, name) + stringSize(2, value);
  }

  private static int stringSize(int field, String s) {
    return s.isEmpty() ? 0 : CodedOutputStream.computeStringSize(field, s);
  }

  private static int sampleSize(long t, double v) {
    return (Double.doubleToRawLongBits(v) == 0 ? 0 : CodedOutputStream.computeDoubleSize(1, v))
        + (t == 0 ? 0 : CodedOutputStream.computeInt64Size(2, t));
  }

  private static void writeSample(CodedOutputStream out, long t, double v) throws IOException {
    if (Double.doubleToRawLongBits(v) != 0) {
      // writeDouble keeps the raw bits: a staleness marker's NaN payload survives.
      out.writeDouble(1, v);
    }
    if (t != 0) {
      out.writeInt64(2, t);
    }
  }

  private static void writeString(CodedOutputStream out, int field, String s) throws IOException {
    if (!s.isEmpty()) {
      out.writeString(field, s);
    }
  }
}
