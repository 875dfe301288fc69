package dev.infermon.promql.promqltest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.value.StaleNaN;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The series notation of promqltest, as Prometheus's ParseSeriesDesc reads it. */
class SeriesDescriptionTest {
  static Stream<Arguments> notations() {
    double o = Double.MIN_VALUE; // stands for "omitted" in this table
    return Stream.of(
        Arguments.of("m 0+10x3", new double[] {0, 10, 20, 30}),
        Arguments.of("m 1-2x3", new double[] {1, -1, -3, -5}),
        Arguments.of("m 1x4", new double[] {1, 1, 1, 1, 1}),
        Arguments.of("m _ 2 _x2 3", new double[] {o, 2, o, o, 3}),
        Arguments.of("m 52+0x2", new double[] {52, 52, 52}),
        Arguments.of("m -Inf NaN 1e3", new double[] {Double.NEGATIVE_INFINITY, Double.NaN, 1000}));
  }

  @ParameterizedTest
  @MethodSource("notations")
  void expandsValues(String line, double[] expected) {
    SeriesDescription d = SeriesDescription.parse(line);
    assertThat(d.values()).hasSameSizeAs(expected);
    for (int i = 0; i < expected.length; i++) {
      if (expected[i] == Double.MIN_VALUE) {
        assertThat(d.omitted()[i]).as("value %d omitted", i).isTrue();
      } else {
        assertThat(d.omitted()[i]).isFalse();
        assertThat(Double.compare(d.values()[i], expected[i])).as("value %d", i).isZero();
      }
    }
  }

  @ParameterizedTest
  @MethodSource("labelSets")
  void parsesLabelSets(String line, Labels expected) {
    assertThat(SeriesDescription.parse(line).labels()).isEqualTo(expected);
  }

  static Stream<Arguments> labelSets() {
    return Stream.of(
        Arguments.of(
            "up{job=\"a\", instance='i'} 1",
            Labels.of("__name__", "up", "job", "a", "instance", "i")),
        Arguments.of("{\"my.metric\", a=\"b\"} 1", Labels.of("__name__", "my.metric", "a", "b")),
        Arguments.of("vllm:x_total{} 1", Labels.of("__name__", "vllm:x_total")),
        Arguments.of("{a=\"q\\\"uote\"} 1", Labels.of("a", "q\"uote")));
  }

  @ParameterizedTest
  @MethodSource("staleLines")
  void staleIsTheMarker(String line) {
    assertThat(StaleNaN.is(SeriesDescription.parse(line).values()[1])).isTrue();
  }

  static Stream<String> staleLines() {
    return Stream.of("m 1 stale", "m 0 stale 2");
  }

  @ParameterizedTest
  @MethodSource("metrics")
  void parsesMetricNotationAlone(String text, Labels expected) {
    assertThat(SeriesDescription.parseMetric(text)).isEqualTo(expected);
  }

  static Stream<Arguments> metrics() {
    return Stream.of(
        Arguments.of("up", Labels.of("__name__", "up")),
        Arguments.of("  up{job=\"a\"} ", Labels.of("__name__", "up", "job", "a")),
        Arguments.of("{__name__=\"up\", job='a'}", Labels.of("__name__", "up", "job", "a")),
        Arguments.of("{}", Labels.EMPTY),
        Arguments.of("", Labels.EMPTY));
  }

  @Test
  void refusesTrailingTextAndHugeRepetitions() {
    assertThatThrownBy(() -> SeriesDescription.parseMetric("up{job=\"a\"} 1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unexpected text after the label set");
    assertThatThrownBy(() -> SeriesDescription.parse("m 1x100000000000"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad repetition count in 1x100000000000");
    assertThatThrownBy(() -> SeriesDescription.parse("m 1+1xq"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad series value: 1+1xq");
  }

  @Test
  void isImmutable() {
    SeriesDescription d = SeriesDescription.parse("m 1 _ 3");
    d.values()[0] = 99;
    d.omitted()[1] = false;

    assertThat(d.value(0)).isEqualTo(1);
    assertThat(d.isOmitted(1)).isTrue();
    assertThat(d.size()).isEqualTo(3);
  }
}
