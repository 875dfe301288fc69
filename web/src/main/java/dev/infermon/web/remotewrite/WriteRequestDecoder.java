package dev.infermon.web.remotewrite;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.metadata.MetricType;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
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
 * <p>Thread-safe. Label strings go through one shared {@link LabelStrings} table, so the strings of
 * series sent again are not allocated again.
 */
public final class WriteRequestDecoder {
  private static final LabelStrings STRINGS = new LabelStrings();

  /**
   * One decompression buffer kept from request to request, so that a steady stream of requests does
   * not allocate a body-sized array each (about half of what decoding allocated). Requests that run
   * at the same time take it or allocate their own; buffers over the bound are not kept.
   */
  private static final AtomicReference<byte[]> SPARE = new AtomicReference<>();

  private static final int SPARE_MAX_BYTES = 4 << 20;

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
    long len;
    try {
      if (!Snappy.isValidCompressedBuffer(snappyBody)) {
        throw new InvalidWriteRequestException("snappy: corrupt input");
      }
      len = Snappy.uncompressedLength(snappyBody);
    } catch (IOException e) {
      throw new InvalidWriteRequestException("snappy: corrupt input");
    }
    if (len > maxUncompressedBytes || len > Integer.MAX_VALUE - 8) {
      throw new InvalidWriteRequestException(
          "decoded body of " + len + " bytes exceeds the limit of " + maxUncompressedBytes);
    }
    byte[] raw = SPARE.getAndSet(null);
    if (raw == null || raw.length < len) {
      raw = new byte[(int) len];
    }
    try {
      int n = Snappy.uncompress(snappyBody, 0, snappyBody.length, raw, 0);
      return decodeProto(raw, n);
    } catch (IOException e) {
      throw new InvalidWriteRequestException("snappy: corrupt input");
    } finally {
      // Every string has been copied out of the buffer by now: the next request may reuse it.
      if (raw.length <= SPARE_MAX_BYTES) {
        SPARE.set(raw);
      }
    }
  }

  /** Decodes an uncompressed WriteRequest. */
  static WriteRequest decodeProto(byte[] raw) throws InvalidWriteRequestException {
    return decodeProto(raw, raw.length);
  }

  /** Decodes the uncompressed WriteRequest in {@code raw[0, length)}. */
  private static WriteRequest decodeProto(byte[] raw, int length)
      throws InvalidWriteRequestException {
    List<WriteRequest.Series> series = new ArrayList<>();
    List<WriteRequest.FamilyMetadata> metadata = new ArrayList<>();
    Scratch scratch = new Scratch();
    try {
      CodedInputStream in = CodedInputStream.newInstance(raw, 0, length);
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          break;
        }
        switch (tag) {
          case (1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
            {
              int limit = in.pushLimit(in.readRawVarint32());
              series.add(timeSeries(in, raw, scratch, series.size()));
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

  /** One request's working arrays, reused from series to series. */
  private static final class Scratch {
    String[] names = new String[16];
    String[] values = new String[16];
    int labels;
    long[] ts = new long[8];
    double[] vs = new double[8];
    int samples;

    void label(String name, String value) {
      if (labels == names.length) {
        names = Arrays.copyOf(names, labels * 2);
        values = Arrays.copyOf(values, labels * 2);
      }
      names[labels] = name;
      values[labels] = value;
      labels++;
    }

    void sample(long t, double v) {
      if (samples == ts.length) {
        ts = Arrays.copyOf(ts, samples * 2);
        vs = Arrays.copyOf(vs, samples * 2);
      }
      ts[samples] = t;
      vs[samples] = v;
      samples++;
    }
  }

  private static WriteRequest.Series timeSeries(
      CodedInputStream in, byte[] raw, Scratch sc, int index)
      throws IOException, InvalidWriteRequestException {
    sc.labels = 0;
    sc.samples = 0;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      if (tag == ((1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        int limit = in.pushLimit(in.readRawVarint32());
        label(in, raw, sc);
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
        sc.sample(t, v);
      } else {
        in.skipField(tag);
      }
    }
    return new WriteRequest.Series(
        labels(sc, index), Arrays.copyOf(sc.ts, sc.samples), Arrays.copyOf(sc.vs, sc.samples));
  }

  private static void label(CodedInputStream in, byte[] raw, Scratch sc) throws IOException {
    String name = "";
    String value = "";
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      if (tag == ((1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        name = string(in, raw);
      } else if (tag == ((2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        value = string(in, raw);
      } else {
        in.skipField(tag);
      }
    }
    sc.label(name, value);
  }

  /** A length-delimited UTF-8 string at the reader's position, through {@link #STRINGS}. */
  private static String string(CodedInputStream in, byte[] raw) throws IOException {
    int len = in.readRawVarint32();
    int pos = in.getTotalBytesRead(); // the array's own index: the reader starts at 0
    in.skipRawBytes(len); // checks the length against the body and the enclosing limits
    try {
      return STRINGS.get(raw, pos, len);
    } catch (CharacterCodingException e) {
      throw new InvalidProtocolBufferException("Protocol message had invalid UTF-8.");
    }
  }

  /**
   * Validates as Prometheus's {@code labels.IsValid} with legacy names; empty values drop. Senders
   * sort their labels (Prometheus does), so the label set is built from the decoded arrays as they
   * are; only unsorted input goes through a builder and a duplicate check.
   */
  private static Labels labels(Scratch sc, int index) throws InvalidWriteRequestException {
    int kept = 0;
    boolean sorted = true;
    String metric = null;
    for (int i = 0; i < sc.labels; i++) {
      String name = sc.names[i];
      if (!validName(name, false)) {
        throw new InvalidWriteRequestException(
            "invalid label name " + quote(name) + " in series " + index + " of the request");
      }
      sorted &= i == 0 || sc.names[i - 1].compareTo(name) < 0;
      if (!sc.values[i].isEmpty()) {
        kept++;
        if (name.equals(Labels.METRIC_NAME)) {
          metric = sc.values[i];
        }
      }
    }
    if (kept == 0) {
      throw new InvalidWriteRequestException("series " + index + " of the request has no labels");
    }
    if (metric != null && !validName(metric, true)) {
      throw new InvalidWriteRequestException(
          "invalid metric name " + quote(metric) + " in series " + index + " of the request");
    }
    if (!sorted) {
      return unsortedLabels(sc, index);
    }
    String[] names = new String[kept];
    String[] values = new String[kept];
    for (int i = 0, k = 0; i < sc.labels; i++) {
      if (!sc.values[i].isEmpty()) {
        names[k] = sc.names[i];
        values[k++] = sc.values[i];
      }
    }
    return Labels.fromSortedNamesAndValues(names, values);
  }

  /** The slow path of {@link #labels}: names already valid, values already checked. */
  private static Labels unsortedLabels(Scratch sc, int index) throws InvalidWriteRequestException {
    Set<String> seen = new HashSet<>();
    Labels.Builder b = Labels.builder();
    for (int i = 0; i < sc.labels; i++) {
      String name = sc.names[i];
      if (!seen.add(name)) {
        throw new InvalidWriteRequestException(
            "duplicate label name " + quote(name) + " in series " + index + " of the request");
      }
      b.set(name, sc.values[i]);
    }
    return b.build();
  }

  /**
   * {@code [a-zA-Z_][a-zA-Z0-9_]*}, or with {@code colons} {@code [a-zA-Z_:][a-zA-Z0-9_:]*}: a
   * loop, not a regex matcher per label.
   */
  private static boolean validName(String name, boolean colons) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          c == '_'
              || (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (colons && c == ':')
              || (i > 0 && c >= '0' && c <= '9');
      if (!ok) {
        return false;
      }
    }
    return true;
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
