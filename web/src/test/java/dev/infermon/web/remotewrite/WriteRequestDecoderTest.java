package dev.infermon.web.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.CodedOutputStream;
import dev.infermon.model.labels.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The decoder against a plain model of remote-write label rules (names valid and unique, empty
 * values dropped, at least one label, a valid metric name), over sorted and unsorted pairs, names
 * that repeat and that clash, and non-ASCII values; each body is decoded twice, so the second pass
 * reads its strings from the string table, and after bodies of other sizes, so the reused
 * decompression buffer holds other bytes past its end.
 */
class WriteRequestDecoderTest {

  @Property(tries = 400)
  void decodesAsTheLabelRulesSayTwiceOver(@ForAll("series") List<List<String>> series)
      throws IOException {
    List<WriteRequestEncoder.RawSeries> raw = new ArrayList<>();
    for (List<String> pairs : series) {
      raw.add(new WriteRequestEncoder.RawSeries(pairs, new long[] {1000}, new double[] {1.5}));
    }
    // Snappy bodies through the public entry point: tries of every size follow each other, so the
    // reused decompression buffer holds a longer earlier body's bytes past this one's end.
    byte[] body = WriteRequestEncoder.encode(raw);
    String expected = expected(series);
    for (int pass = 0; pass < 2; pass++) {
      String actual;
      try {
        WriteRequest req = WriteRequestDecoder.decode(body, 1 << 20);
        StringBuilder sb = new StringBuilder();
        for (WriteRequest.Series s : req.series()) {
          sb.append(s.labels()).append(s.timestamps()[0]).append(s.values()[0]).append('\n');
        }
        actual = sb.toString();
      } catch (InvalidWriteRequestException e) {
        actual = "error";
      }
      assertThat(actual).as("pass %d over %s", pass, series).isEqualTo(expected);
    }
  }

  @Test
  void aShortBodyAfterALongOneReadsOnlyItsOwnBytes() throws Exception {
    List<WriteRequestEncoder.RawSeries> many = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      many.add(raw(List.of("__name__", "m", "pod", "pod-" + i)));
    }
    assertThat(WriteRequestDecoder.decode(WriteRequestEncoder.encode(many), 1 << 20).series())
        .hasSize(500);
    WriteRequest one =
        WriteRequestDecoder.decode(
            WriteRequestEncoder.encode(List.of(raw(List.of("__name__", "up")))), 1 << 20);
    assertThat(one.series())
        .extracting(WriteRequest.Series::labels)
        .containsExactly(Labels.of("__name__", "up"));
  }

  @Test
  void nonAsciiValuesDecodeAndRepeat() throws Exception {
    List<String> pairs = List.of("__name__", "up", "model", "qwén-ü", "zone", "東京");
    byte[] body = WriteRequestEncoder.proto(List.of(raw(pairs), raw(pairs)));
    WriteRequest req = WriteRequestDecoder.decodeProto(body);
    Labels want = Labels.of("__name__", "up", "model", "qwén-ü", "zone", "東京");
    assertThat(req.series()).extracting(WriteRequest.Series::labels).containsExactly(want, want);
  }

  @Test
  void invalidUtf8IsRefusedLikeProtobufDoes() throws Exception {
    ByteArrayOutputStream label = new ByteArrayOutputStream();
    CodedOutputStream l = CodedOutputStream.newInstance(label);
    l.writeString(1, "__name__");
    l.writeByteArray(2, new byte[] {'u', (byte) 0xC3, 'p'}); // a lead byte without its follower
    l.flush();
    ByteArrayOutputStream ts = new ByteArrayOutputStream();
    CodedOutputStream t = CodedOutputStream.newInstance(ts);
    t.writeByteArray(1, label.toByteArray());
    t.flush();
    ByteArrayOutputStream req = new ByteArrayOutputStream();
    CodedOutputStream r = CodedOutputStream.newInstance(req);
    r.writeByteArray(1, ts.toByteArray());
    r.flush();
    assertThatThrownBy(() -> WriteRequestDecoder.decodeProto(req.toByteArray()))
        .isInstanceOf(InvalidWriteRequestException.class)
        .hasMessageContaining("invalid UTF-8");
  }

  @Test
  void aStringLongerThanItsLabelIsRefused() {
    // TimeSeries { Label (3 bytes) { name: length 9, but only 1 byte follows } }
    byte[] body = {0x0a, 0x05, 0x0a, 0x03, 0x0a, 0x09, 'x'};
    assertThatThrownBy(() -> WriteRequestDecoder.decodeProto(body))
        .isInstanceOf(InvalidWriteRequestException.class)
        .hasMessageStartingWith("cannot decode the protobuf WriteRequest");
  }

  private static WriteRequestEncoder.RawSeries raw(List<String> pairs) {
    return new WriteRequestEncoder.RawSeries(pairs, new long[] {1}, new double[] {2});
  }

  /** The model: the decoded series as text, or "error" when any series breaks a rule. */
  private static String expected(List<List<String>> series) {
    StringBuilder sb = new StringBuilder();
    for (List<String> pairs : series) {
      Map<String, String> m = new TreeMap<>();
      for (int i = 0; i < pairs.size(); i += 2) {
        String name = pairs.get(i);
        if (!name.matches("[a-zA-Z_][a-zA-Z0-9_]*") || m.containsKey(name)) {
          return "error";
        }
        m.put(name, pairs.get(i + 1));
      }
      m.values().removeIf(String::isEmpty);
      String metric = m.get("__name__");
      if (m.isEmpty() || (metric != null && !metric.matches("[a-zA-Z_:][a-zA-Z0-9_:]*"))) {
        return "error";
      }
      sb.append(Labels.fromMap(m)).append(1000).append(1.5).append('\n');
    }
    return sb.toString();
  }

  @Provide
  Arbitrary<List<List<String>>> series() {
    Arbitrary<String> names =
        Arbitraries.of("__name__", "pod", "model_name", "le", "a", "b", "9x", "bad-name", "");
    Arbitrary<String> values =
        Arbitraries.of("vllm:num_requests_running", "up", "pod-1", "0.5", "+Inf", "", "qwén", "a b")
            .injectDuplicates(0.3);
    Arbitrary<List<String>> pairs =
        Combinators.combine(names, values)
            .as(List::of)
            .list()
            .ofMinSize(0)
            .ofMaxSize(6)
            .map(
                ps -> {
                  List<String> flat = new ArrayList<>();
                  ps.forEach(flat::addAll);
                  return flat;
                });
    Arbitrary<List<String>> sorted =
        pairs.map(
            flat -> {
              Map<String, String> m = new TreeMap<>();
              for (int i = 0; i < flat.size(); i += 2) {
                m.putIfAbsent(flat.get(i), flat.get(i + 1));
              }
              List<String> out = new ArrayList<>();
              m.forEach((k, v) -> List.of(k, v).forEach(out::add));
              return out;
            });
    return Arbitraries.oneOf(pairs, sorted).list().ofMinSize(1).ofMaxSize(4);
  }
}
