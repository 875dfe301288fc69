package dev.infermon.remote.testing;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.xerial.snappy.Snappy;

/**
 * An independent reader of remote-write 1.0 bodies for tests: snappy, then the protobuf fields by
 * number, straight from prompb's .proto files. Unknown fields fail the test instead of being
 * skipped, so an encoder writing a wrong field number cannot pass.
 */
public final class WireDecoder {
  private WireDecoder() {}

  /** One decoded {@code TimeSeries}. */
  public record Series(Map<String, String> labels, List<Long> timestamps, List<Long> valueBits) {}

  /** One decoded {@code MetricMetadata}. */
  public record Meta(int type, String family, String help, String unit) {}

  /** A decoded {@code WriteRequest}. */
  public record Request(List<Series> series, List<Meta> metadata) {
    public int samples() {
      return series.stream().mapToInt(s -> s.timestamps().size()).sum();
    }
  }

  public static Request decode(byte[] snappy) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(Snappy.uncompress(snappy));
    List<Series> series = new ArrayList<>();
    List<Meta> meta = new ArrayList<>();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int field = WireFormat.getTagFieldNumber(tag);
      if (field == 1) {
        series.add(series(in.readBytes().newCodedInput()));
      } else if (field == 3) {
        meta.add(meta(in.readBytes().newCodedInput()));
      } else {
        throw new IOException("unexpected WriteRequest field " + field);
      }
    }
    return new Request(series, meta);
  }

  private static Series series(CodedInputStream in) throws IOException {
    Map<String, String> labels = new LinkedHashMap<>();
    List<Long> ts = new ArrayList<>();
    List<Long> vs = new ArrayList<>();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int field = WireFormat.getTagFieldNumber(tag);
      CodedInputStream sub = in.readBytes().newCodedInput();
      if (field == 1) {
        String name = "";
        String value = "";
        for (int t = sub.readTag(); t != 0; t = sub.readTag()) {
          switch (WireFormat.getTagFieldNumber(t)) {
            case 1:
              name = sub.readString();
              break;
            case 2:
              value = sub.readString();
              break;
            default:
              throw new IOException("unexpected Label field " + t);
          }
        }
        labels.put(name, value);
      } else if (field == 2) {
        long bits = 0;
        long time = 0;
        for (int t = sub.readTag(); t != 0; t = sub.readTag()) {
          switch (t) {
            case (1 << 3) | WireFormat.WIRETYPE_FIXED64:
              bits = sub.readFixed64();
              break;
            case (2 << 3) | WireFormat.WIRETYPE_VARINT:
              time = sub.readInt64();
              break;
            default:
              throw new IOException("unexpected Sample tag " + t);
          }
        }
        ts.add(time);
        vs.add(bits);
      } else {
        throw new IOException("unexpected TimeSeries field " + field);
      }
    }
    return new Series(labels, ts, vs);
  }

  private static Meta meta(CodedInputStream in) throws IOException {
    int type = 0;
    String family = "";
    String help = "";
    String unit = "";
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1:
          type = in.readEnum();
          break;
        case 2:
          family = in.readString();
          break;
        case 4:
          help = in.readString();
          break;
        case 5:
          unit = in.readString();
          break;
        default:
          throw new IOException("unexpected MetricMetadata field " + tag);
      }
    }
    return new Meta(type, family, help, unit);
  }
}
