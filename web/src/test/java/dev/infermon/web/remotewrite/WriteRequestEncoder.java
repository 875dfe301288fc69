package dev.infermon.web.remotewrite;

import com.google.protobuf.CodedOutputStream;
import dev.infermon.model.labels.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.xerial.snappy.Snappy;

/**
 * Encodes remote-write 1.0 requests for tests (and for loading the real Prometheus with the same
 * data): protobuf {@code WriteRequest} with snappy block compression.
 */
public final class WriteRequestEncoder {
  private WriteRequestEncoder() {}

  /** One series: labels in the order given (so tests can send unsorted or invalid ones). */
  public record RawSeries(List<String> labelPairs, long[] timestamps, double[] values) {
    public static RawSeries of(Labels l, long[] ts, double[] vs) {
      java.util.ArrayList<String> pairs = new java.util.ArrayList<>();
      for (int i = 0; i < l.size(); i++) {
        pairs.add(l.name(i));
        pairs.add(l.value(i));
      }
      return new RawSeries(pairs, ts, vs);
    }
  }

  public static byte[] encode(List<RawSeries> series) throws IOException {
    return Snappy.compress(proto(series));
  }

  static byte[] proto(List<RawSeries> series) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CodedOutputStream c = CodedOutputStream.newInstance(out);
    for (RawSeries s : series) {
      byte[] ts = timeSeries(s);
      c.writeByteArray(1, ts);
    }
    c.flush();
    return out.toByteArray();
  }

  private static byte[] timeSeries(RawSeries s) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CodedOutputStream c = CodedOutputStream.newInstance(out);
    for (int i = 0; i < s.labelPairs().size(); i += 2) {
      ByteArrayOutputStream lo = new ByteArrayOutputStream();
      CodedOutputStream l = CodedOutputStream.newInstance(lo);
      l.writeString(1, s.labelPairs().get(i));
      l.writeString(2, s.labelPairs().get(i + 1));
      l.flush();
      c.writeByteArray(1, lo.toByteArray());
    }
    for (int i = 0; i < s.timestamps().length; i++) {
      ByteArrayOutputStream so = new ByteArrayOutputStream();
      CodedOutputStream sc = CodedOutputStream.newInstance(so);
      sc.writeDouble(1, s.values()[i]);
      sc.writeInt64(2, s.timestamps()[i]);
      sc.flush();
      c.writeByteArray(2, so.toByteArray());
    }
    c.flush();
    return out.toByteArray();
  }
}
