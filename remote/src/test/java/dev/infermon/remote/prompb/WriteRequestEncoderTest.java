package dev.infermon.remote.prompb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.model.metadata.MetricType;
import dev.infermon.model.value.StaleNaN;
import dev.infermon.remote.testing.WireDecoder;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The encoder's bytes, read back by an independent decoder written from prompb's .proto files. */
class WriteRequestEncoderTest {

  static Stream<Arguments> samples() {
    return Stream.of(
        Arguments.of("plain", 1_700_000_000_123L, 42.5),
        Arguments.of("zero value is omitted and reads back as 0", 1_700_000_000_000L, 0.0),
        Arguments.of("zero timestamp is omitted and reads back as 0", 0L, 1.0),
        Arguments.of("negative timestamp", -1_000L, -3.25),
        Arguments.of("staleness marker keeps its NaN payload", 5L, StaleNaN.VALUE),
        Arguments.of("ordinary NaN stays an ordinary NaN", 5L, Double.NaN),
        Arguments.of("+Inf", 5L, Double.POSITIVE_INFINITY),
        Arguments.of("negative zero keeps its sign bit", 5L, -0.0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void aSampleRoundTripsBitForBit(String name, long t, double v) throws IOException {
    Labels l = Labels.of("__name__", "vllm:num_requests_running", "pod", "p-ü-1", "model", "m");
    byte[] body =
        new WriteRequestEncoder()
            .encodeSamples(new Labels[] {l}, new long[] {t}, new double[] {v}, 1);

    WireDecoder.Request r = WireDecoder.decode(body);

    assertThat(r.series()).hasSize(1);
    WireDecoder.Series s = r.series().get(0);
    assertThat(s.labels())
        .containsExactly(
            Map.entry("__name__", "vllm:num_requests_running"),
            Map.entry("model", "m"),
            Map.entry("pod", "p-ü-1"));
    assertThat(s.timestamps()).containsExactly(t);
    assertThat(s.valueBits()).containsExactly(Double.doubleToRawLongBits(v));
  }

  @Test
  void samplesKeepTheirOrderOneTimeSeriesEach() throws IOException {
    Labels a = Labels.of("__name__", "a");
    Labels b = Labels.of("__name__", "b");
    byte[] body =
        new WriteRequestEncoder()
            .encodeSamples(
                new Labels[] {a, b, a, null},
                new long[] {1, 1, 2, 0},
                new double[] {10, 20, 11, 0},
                3);

    WireDecoder.Request r = WireDecoder.decode(body);

    assertThat(r.series())
        .extracting(s -> s.labels().get("__name__") + "@" + s.timestamps().get(0))
        .containsExactly("a@1", "b@1", "a@2");
  }

  @Test
  void metadataCarriesPrompbTypeNumbers() throws IOException {
    byte[] body =
        new WriteRequestEncoder()
            .encodeMetadata(
                List.of(
                    new WriteRequestEncoder.FamilyMetadata(
                        "vllm:time_to_first_token_seconds",
                        new Metadata(MetricType.HISTOGRAM, "TTFT.", "seconds")),
                    new WriteRequestEncoder.FamilyMetadata(
                        "up", new Metadata(MetricType.GAUGE, "", "")),
                    new WriteRequestEncoder.FamilyMetadata("x", Metadata.UNKNOWN)));

    WireDecoder.Request r = WireDecoder.decode(body);

    assertThat(r.series()).isEmpty();
    assertThat(r.metadata())
        .containsExactly(
            new WireDecoder.Meta(3, "vllm:time_to_first_token_seconds", "TTFT.", "seconds"),
            new WireDecoder.Meta(2, "up", "", ""),
            new WireDecoder.Meta(0, "x", "", ""));
  }

  @Test
  void everyTypeHasItsEnumNumber() {
    // prompb MetricMetadata.MetricType: UNKNOWN=0 COUNTER=1 GAUGE=2 HISTOGRAM=3
    // GAUGEHISTOGRAM=4 SUMMARY=5 INFO=6 STATESET=7
    assertThat(
            Stream.of(MetricType.values())
                .map(t -> t + "=" + WriteRequestEncoder.typeNumber(t))
                .toList())
        .containsExactly(
            "COUNTER=1",
            "GAUGE=2",
            "HISTOGRAM=3",
            "GAUGEHISTOGRAM=4",
            "SUMMARY=5",
            "INFO=6",
            "STATESET=7",
            "UNKNOWN=0");
  }

  @Test
  void aCountBeyondTheArraysIsACallerMistake() {
    assertThatThrownBy(
            () ->
                new WriteRequestEncoder()
                    .encodeSamples(new Labels[1], new long[1], new double[1], 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2");
  }

  @Property(tries = 50)
  void anyBatchRoundTrips(
      @ForAll @Size(min = 1, max = 40)
          List<@AlphaChars @StringLength(min = 1, max = 12) String> names,
      @ForAll long t,
      @ForAll double v)
      throws IOException {
    int n = names.size();
    Labels[] ls = new Labels[n];
    long[] ts = new long[n];
    double[] vs = new double[n];
    for (int i = 0; i < n; i++) {
      ls[i] = Labels.of("__name__", "m_" + names.get(i), "i", Integer.toString(i));
      ts[i] = t + i;
      vs[i] = v * i;
    }
    WriteRequestEncoder enc = new WriteRequestEncoder();
    // Encode twice with the same encoder: buffer reuse must not leak the first request.
    enc.encodeSamples(ls, ts, vs, n);
    WireDecoder.Request r = WireDecoder.decode(enc.encodeSamples(ls, ts, vs, n));

    assertThat(r.series()).hasSize(n);
    for (int i = 0; i < n; i++) {
      WireDecoder.Series s = r.series().get(i);
      assertThat(s.labels()).containsEntry("__name__", "m_" + names.get(i));
      assertThat(s.timestamps()).containsExactly(ts[i]);
      assertThat(s.valueBits()).containsExactly(Double.doubleToRawLongBits(vs[i]));
    }
  }
}
