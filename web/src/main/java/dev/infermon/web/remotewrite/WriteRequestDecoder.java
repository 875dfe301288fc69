package dev.infermon.web.remotewrite;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.metadata.MetricType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.xerial.snappy.Snappy;

/**
 * Decodes a remote-write 1.0 body: snappy block format around a protobuf {@code WriteRequest}
 * ({@code prompb/remote.proto}, {@code prompb/types.proto}). Only the fields infermon uses are
 * read; unknown fields, exemplars and histograms are skipped, as protobuf readers must.
 *
 * <pre>
 * WriteRequest   { repeated TimeSeries timeseries = 1; repeated MetricMetadata metadata = 3; }
 * TimeSeries     { repeated Label labels = 1; repeated Sample samples = 2; }
 * Label          { string name = 1; string value = 2; }
 * Sample         { double value = 1; int64 timestamp = 2; }
 * MetricMetadata { MetricType type = 1; string metric_family_name = 2; string help = 4; string unit = 5; }
 * </pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class WriteRequestDecoder {
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  // Compiled once: String.matches compiles its pattern on every call, once per series here.
  private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

  /** prompb's MetricMetadata.MetricType enum, by number. */
  private static final MetricType[] TYPES = {
    MetricType.UNKNOWN,
    MetricType.COUNTER,
    MetricType.GAUGE,
    MetricType.HISTOGRAM,
    MetricType.GAUGEHISTOGRAM,
    MetricType.SUMMARY,
    MetricType.INFO,
    MetricType.STATESET
  };

  private WriteRequestDecoder() {}

  /**
   * Decompresses and decodes a body.
   *
   * @throws InvalidWriteRequestException with a readable reason when the body is not snappy, not a
   *     WriteRequest, or carries invalid labels
   */
  public static WriteRequest decode(byte[] snappyBody, long maxUncompressedBytes)
      throws InvalidWriteRequestException {
    byte[] raw;
    try {
      if (!Snappy.isValidCompressedBuffer(snappyBody)) {
        throw new InvalidWriteRequestException("snappy: corrupt input");
      }
      long len = Snappy.uncompressedLength(snappyBody);
      if (len > maxUncompressedBytes) {
        throw new InvalidWriteRequestException(
            "decoded body of " + len + " bytes exceeds the limit of " + maxUncompressedBytes);
      }
      raw = Snappy.uncompress(snappyBody);
    } catch (IOException e) {
      throw new InvalidWriteRequestException("snappy: corrupt input");
    }
    return decodeProto(raw);
  }

  /** Decodes an uncompressed WriteRequest. */
  static WriteRequest decodeProto(byte[] raw) throws InvalidWriteRequestException {
    List<WriteRequest.Series> series = new ArrayList<>();
    List<WriteRequest.FamilyMetadata> metadata = new ArrayList<>();
    try {
      CodedInputStream in = CodedInputStream.newInstance(raw);
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          break;
        }
        switch (tag) {
          case (1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
            {
              int limit = in.pushLimit(in.readRawVarint32());
              series.add(timeSeries(in, series.size()));
              in.popLimit(limit);
              break;
            }
          case (3 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
            {
              int limit = in.pushLimit(in.readRawVarint32());
              metadata.add(metricMetadata(in));
              in.popLimit(limit);
              break;
            }
          default:
            in.skipField(tag);
        }
      }
    } catch (IOException e) {
      throw new InvalidWriteRequestException(
          "cannot decode the protobuf WriteRequest: " + e.getMessage());
    }
    return new WriteRequest(series, metadata);
  }

  private static WriteRequest.Series timeSeries(CodedInputStream in, int index)
      throws IOException, InvalidWriteRequestException {
    List<String> pairs = new ArrayList<>();
    long[] ts = new long[8];
    double[] vs = new double[8];
    int n = 0;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      if (tag == ((1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        int limit = in.pushLimit(in.readRawVarint32());
        label(in, pairs);
        in.popLimit(limit);
      } else if (tag == ((2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        int limit = in.pushLimit(in.readRawVarint32());
        double v = 0;
        long t = 0;
        while (true) {
          int st = in.readTag();
          if (st == 0) {
            break;
          }
          if (st == ((1 << 3) | WireFormat.WIRETYPE_FIXED64)) {
            v = in.readDouble();
          } else if (st == ((2 << 3) | WireFormat.WIRETYPE_VARINT)) {
            t = in.readInt64();
          } else {
            in.skipField(st);
          }
        }
        in.popLimit(limit);
        if (n == ts.length) {
          ts = java.util.Arrays.copyOf(ts, n * 2);
          vs = java.util.Arrays.copyOf(vs, n * 2);
        }
        ts[n] = t;
        vs[n] = v;
        n++;
      } else {
        in.skipField(tag);
      }
    }
    Labels labels = labels(pairs, index);
    return new WriteRequest.Series(
        labels, java.util.Arrays.copyOf(ts, n), java.util.Arrays.copyOf(vs, n));
  }

  private static void label(CodedInputStream in, List<String> pairs) throws IOException {
    String name = "";
    String value = "";
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      if (tag == ((1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        name = in.readStringRequireUtf8();
      } else if (tag == ((2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        value = in.readStringRequireUtf8();
      } else {
        in.skipField(tag);
      }
    }
    pairs.add(name);
    pairs.add(value);
  }

  /** Validates as Prometheus's {@code labels.IsValid} with legacy names; empty values drop. */
  private static Labels labels(List<String> pairs, int index) throws InvalidWriteRequestException {
    Set<String> seen = new HashSet<>();
    Labels.Builder b = Labels.builder();
    for (int i = 0; i < pairs.size(); i += 2) {
      String name = pairs.get(i);
      if (!LABEL_NAME.matcher(name).matches()) {
        throw new InvalidWriteRequestException(
            "invalid label name " + quote(name) + " in series " + index + " of the request");
      }
      if (!seen.add(name)) {
        throw new InvalidWriteRequestException(
            "duplicate label name " + quote(name) + " in series " + index + " of the request");
      }
      b.set(name, pairs.get(i + 1));
    }
    Labels l = b.build();
    if (l.isEmpty()) {
      throw new InvalidWriteRequestException("series " + index + " of the request has no labels");
    }
    String metric = l.get(Labels.METRIC_NAME);
    if (metric != null && !METRIC_NAME.matcher(metric).matches()) {
      throw new InvalidWriteRequestException(
          "invalid metric name " + quote(metric) + " in series " + index + " of the request");
    }
    return l;
  }

  private static WriteRequest.FamilyMetadata metricMetadata(CodedInputStream in)
      throws IOException {
    int type = 0;
    String name = "";
    String help = "";
    String unit = "";
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      switch (tag) {
        case (1 << 3) | WireFormat.WIRETYPE_VARINT:
          type = in.readEnum();
          break;
        case (2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          name = in.readStringRequireUtf8();
          break;
        case (4 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          help = in.readStringRequireUtf8();
          break;
        case (5 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          unit = in.readStringRequireUtf8();
          break;
        default:
          in.skipField(tag);
      }
    }
    MetricType t = type >= 0 && type < TYPES.length ? TYPES[type] : MetricType.UNKNOWN;
    return new WriteRequest.FamilyMetadata(name, new Metadata(t, help, unit));
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
