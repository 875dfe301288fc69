package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.config.yaml.YamlPrinter;
import org.junit.jupiter.api.Test;

/** The {@code llm.dashboard} section: rollups on by default, a bad value named with its path. */
class DashboardConfigTest {
  @Test
  void rollupsAreOnByDefaultAndCanBeTurnedOff() throws ConfigException {
    assertThat(Fixtures.parse("llm: {}\n").llm().dashboard())
        .isEqualTo(LlmConfig.Dashboard.DEFAULT);
    assertThat(LlmConfig.Dashboard.DEFAULT.rollups()).isTrue();
    Config off = Fixtures.parse("llm:\n  dashboard:\n    rollups: false\n");
    assertThat(off.llm().dashboard().rollups()).isFalse();
    assertThat(ConfigLoader.create().parse(YamlPrinter.print(off, false), "printed.yml"))
        .isEqualTo(off);
  }

  @Test
  void aBadValueOrKeyIsNamed() {
    assertThatThrownBy(() -> Fixtures.parse("llm:\n  dashboard:\n    rollups: maybe\n"))
        .hasMessageContaining("llm.dashboard.rollups");
    assertThatThrownBy(() -> Fixtures.parse("llm:\n  dashboard:\n    rolups: true\n"))
        .hasMessageContaining("llm.dashboard")
        .hasMessageContaining("rolups");
  }
}
