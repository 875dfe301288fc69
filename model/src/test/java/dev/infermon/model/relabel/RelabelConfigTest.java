package dev.infermon.model.relabel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Validation messages, as in Prometheus's {@code TestRelabelValidate} and the relabel cases of
 * {@code config/config_test.go}, and {@code TestTargetLabelValidity}.
 */
class RelabelConfigTest {
  static Stream<Arguments> invalid() {
    return Stream.of(
        bad(b -> b, "relabel configuration for replace action requires 'target_label' value"),
        bad(
            b -> b.action(Action.LOWERCASE),
            "relabel configuration for lowercase action requires 'target_label' value"),
        bad(
            b -> b.action(Action.LOWERCASE).targetLabel("${3}"),
            "\"${3}\" is invalid 'target_label' for lowercase action"),
        bad(
            b -> b.sourceLabels(List.of("a")).regex("some-([^-]+)-([^,]+)").targetLabel("0${3}"),
            "\"0${3}\" is invalid 'target_label' for replace action"),
        bad(
            b -> b.sourceLabels(List.of("a")).regex("some-([^-]+)-([^,]+)").targetLabel("-${3}"),
            "\"-${3}\" is invalid 'target_label' for replace action"),
        bad(b -> b.targetLabel("l-1"), "\"l-1\" is invalid 'target_label' for replace action"),
        bad(
            b -> b.action(Action.HASHMOD).targetLabel("x"),
            "relabel configuration for hashmod requires non-zero modulus"),
        bad(
            b -> b.action(Action.HASHMOD).modulus(8).targetLabel("x-y"),
            "\"x-y\" is invalid 'target_label' for hashmod action"),
        bad(
            b -> b.action(Action.UPPERCASE).targetLabel("u").replacement("x"),
            "'replacement' can not be set for uppercase action"),
        bad(
            b -> b.action(Action.LABELMAP).replacement("l-$1"),
            "\"l-$1\" is invalid 'replacement' for labelmap action"),
        bad(
            b -> b.action(Action.KEEP_EQUAL).targetLabel("t").regex("(.*)"),
            "keepequal action requires only 'source_labels' and `target_label`, and no other fields"),
        bad(
            b -> b.action(Action.DROP_EQUAL).targetLabel("t").separator(","),
            "dropequal action requires only 'source_labels' and `target_label`, and no other fields"),
        bad(
            b -> b.action(Action.LABELDROP).sourceLabels(List.of("a")),
            "labeldrop action requires only 'regex', and no other fields"),
        bad(
            b -> b.action(Action.LABELKEEP).targetLabel("t"),
            "labelkeep action requires only 'regex', and no other fields"),
        bad(
            b -> b.action(Action.LABELKEEP).modulus(3),
            "labelkeep action requires only 'regex', and no other fields"),
        bad(
            b -> b.action(Action.LABELDROP).replacement("x"),
            "labeldrop action requires only 'regex', and no other fields"));
  }

  private static Arguments bad(UnaryOperator<RelabelConfig.Builder> f, String message) {
    return Arguments.of(f, message);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalid")
  void rejectsWithPrometheusMessage(UnaryOperator<RelabelConfig.Builder> f, String message) {
    assertThatThrownBy(() -> f.apply(RelabelConfig.builder()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void acceptsAReferenceToAMissingGroupInTheTarget() {
    RelabelConfig c =
        RelabelConfig.builder()
            .sourceLabels(List.of("a"))
            .regex("some-([^-]+)-([^,]+)")
            .replacement("${1}")
            .targetLabel("${3}")
            .build();
    assertThat(c.targetLabel()).isEqualTo("${3}");
  }

  @Test
  void defaultsAreThoseOfPrometheus() {
    RelabelConfig c = RelabelConfig.builder().targetLabel("t").build();
    assertThat(c.action()).isEqualTo(Action.REPLACE);
    assertThat(c.separator()).isEqualTo(";");
    assertThat(c.regex().source()).isEqualTo("(.*)");
    assertThat(c.replacement()).isEqualTo("$1");
    assertThat(c.modulus()).isZero();
    assertThat(c.sourceLabels()).isEmpty();
  }

  @Test
  void rejectsInvalidSourceLabelNames() {
    assertThatThrownBy(() -> RelabelConfig.builder().sourceLabels(List.of("ok", "not-ok")))
        .hasMessage("\"not-ok\" is not a valid label name");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "replace,REPLACE",
    "Replace,REPLACE",
    "KEEPEQUAL,KEEP_EQUAL",
    "labelmap,LABELMAP",
    "uppercase,UPPERCASE"
  })
  void parsesActionNamesIgnoringCase(String name, Action expected) {
    assertThat(Action.fromYamlName(name)).isEqualTo(expected);
  }

  @Test
  void rejectsUnknownActions() {
    assertThatThrownBy(() -> Action.fromYamlName("replce"))
        .hasMessage("unknown relabel action \"replce\"");
  }

  // TestTargetLabelValidity in relabel_test.go: which targets may carry $ references.
  @ParameterizedTest(name = "{0} valid={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "-label|false",
        "label|true",
        "label${1}|true",
        "${1}label|true",
        "${1}|true",
        "${|false",
        "$|false",
        "${}|false",
        "foo${|false",
        "$1|true",
        "asd$2asd|true",
        "-foo${1}bar-|false",
        "_${1}_|true",
        "foo${bar}foo|true"
      })
  void targetLabelValidity(String target, boolean valid) {
    UnaryOperator<RelabelConfig.Builder> f = b -> b.targetLabel(target);
    if (valid) {
      assertThat(f.apply(RelabelConfig.builder()).build().targetLabel()).isEqualTo(target);
    } else {
      assertThatThrownBy(() -> f.apply(RelabelConfig.builder()).build())
          .hasMessageContaining("is invalid 'target_label' for replace action");
    }
  }
}
