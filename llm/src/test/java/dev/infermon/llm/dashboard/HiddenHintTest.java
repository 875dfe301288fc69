package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.ReleaseLine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The value {@code --show-hidden-metrics-for-version} takes on a release: vLLM compares it with the
 * minor release before the running one ({@code _prev_minor_version_was}, vllm/version.py: "return
 * True if the current version is 0.7.4 and the supplied version_str is '0.6'"), never with the
 * release that deprecated the family.
 */
class HiddenHintTest {
  @ParameterizedTest
  @CsvSource({"0.9, 0.8", "0.9.2, 0.8", "0.11, 0.10", "0.11.1, 0.10", "0.12, 0.11", "0.14, 0.13"})
  void theValueIsTheMinorBeforeTheRunningRelease(String running, String value) {
    ReleaseLine r = Catalog.builtIn().engine("vllm").version(running).orElseThrow();
    assertThat(EngineReasons.previousMinor(r)).isEqualTo(value);
  }
}
