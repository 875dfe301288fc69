package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.config.app.LlmConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code llm.alerts.failure_min_count}: the fewest failed requests over the pack's 5-minute rate
 * window for a failing share to count, shared by the alert pack and diagnosis.
 */
class FailureMinCountTest {
  @Test
  void isReadFromTheAlertsSectionAndDefaultsToTen() throws ConfigException {
    assertThat(Fixtures.parse("llm: {}\n").llm().alerts().failureMinCount()).isEqualTo(10);
    assertThat(
            Fixtures.parse("llm:\n  alerts:\n    failure_min_count: 3\n")
                .llm()
                .alerts()
                .failureMinCount())
        .isEqualTo(3);
  }

  @Test
  void countsFailuresOverTheFiveMinuteWindowAtTheBoundary() {
    LlmConfig.Alerts a = alerts(10);
    // 10 failures in 300 s: exactly the minimum counts; one fewer does not
    assertThat(a.enoughFailures(10 / 300.0)).isTrue();
    assertThat(a.enoughFailures(9 / 300.0)).isFalse();
    // the real TGI capture replayed live: 0.009524 failed/s, under 3 failures in 5 minutes
    assertThat(a.enoughFailures(0.009524)).isFalse();
    assertThat(a.enoughFailures(Double.NaN)).as("no failure counter: no failure").isFalse();
  }

  @Test
  void zeroCountsEveryShare() {
    assertThat(alerts(0).enoughFailures(Double.NaN)).isTrue();
    assertThat(alerts(0).enoughFailures(0)).isTrue();
  }

  @Test
  void aNegativeMinimumIsRefusedByName() {
    assertThatThrownBy(() -> alerts(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("failureMinCount")
        .hasMessageContaining("-1");
  }

  private static LlmConfig.Alerts alerts(long min) {
    LlmConfig.Alerts d = LlmConfig.Alerts.DEFAULT;
    return new LlmConfig.Alerts(
        d.enabled(),
        d.ttftQuantile(),
        d.ttftThreshold(),
        d.ttftFor(),
        d.waitingThreshold(),
        d.waitingFor(),
        d.failureRatio(),
        Duration.ofMinutes(15),
        min);
  }
}
