package dev.infermon.llm.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.llm.BadParameterException;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An alert named as a selector, and what is refused with the reason. */
class IncidentRequestTest {
  @Test
  void theNameIsTheAlertnameAndTheMatchersItsLabels() {
    assertThat(
            IncidentRequest.parseAlert(
                "LLMTimeToFirstTokenHigh{namespace=\"inference\", model_name=\"meta-llama/x\"}"))
        .isEqualTo(
            Map.of(
                "alertname", "LLMTimeToFirstTokenHigh",
                "namespace", "inference",
                "model_name", "meta-llama/x"));
    assertThat(IncidentRequest.parseAlert("{alertname=\"Down\", job=\"a\"}"))
        .isEqualTo(Map.of("alertname", "Down", "job", "a"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {job="a"}                          | the selector names no alert
          Down{job=~"a.*"}                   | with = only, not job=~"a.*"
          Down{job="a"} offset 5m            | no offset or @
          rate(Down[5m])                     | not an alert selector
          Down{                              | not an alert selector
          Down{alertname="Up"}               | two values for alertname
          """)
  void otherSelectorsAreRefusedNamingTheParameter(String selector, String why) {
    assertThatThrownBy(() -> IncidentRequest.parseAlert(selector))
        .isInstanceOfSatisfying(
            BadParameterException.class, e -> assertThat(e.parameter()).isEqualTo("alert"))
        .hasMessageContaining(why);
  }

  @Test
  void aRequestNeedsAnAlertname() {
    assertThatThrownBy(
            () ->
                new IncidentRequest(
                    Map.of("job", "a"),
                    "up",
                    OptionalLong.empty(),
                    OptionalLong.empty(),
                    OptionalLong.empty(),
                    OptionalLong.empty()))
        .isInstanceOf(BadParameterException.class)
        .hasMessageContaining("no alertname");
  }

  @Test
  void diagnosisIsEvaluatedAtMostSixteenTimesEndingAtTheEnd() {
    assertThat(Incidents.evaluations(0, 600_000)).hasSize(11).startsWith(0L).endsWith(600_000L);
    assertThat(Incidents.evaluations(0, 86_400_000))
        .hasSize(Incidents.MAX_EVALUATIONS)
        .endsWith(86_400_000L);
    assertThat(Incidents.evaluations(0, 30_000)).containsExactly(30_000L);
  }
}
