package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.History;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.ReleaseRange;
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

  private static final EngineCatalog VLLM = Catalog.builtIn().engine("vllm");

  private static String hint(String family, String first, String last) {
    History h = VLLM.entries(family).get(0).history();
    ReleaseRange range =
        new ReleaseRange(VLLM.version(first).orElseThrow(), VLLM.version(last).orElseThrow());
    return EngineReasons.hiddenHint(VLLM.versions(), h, range);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // deprecated in 0.9.2, hidden in 0.11: on 0.11 the flag takes 0.10, not 0.9.2
        "gpu_cache_usage_perc | 0.11 | 0.11 | --show-hidden-metrics-for-version=0.10 brings it back",
        // hidden 0.12-0.14: each release takes its own previous minor
        "time_per_output_token_seconds | 0.12 | 0.33 | --show-hidden-metrics-for-version=<the minor"
            + " before the running release: 0.11 on 0.12, 0.12 on 0.13, 0.13 on 0.14> brings it back",
        "time_per_output_token_seconds | 0.13 | 0.13 | --show-hidden-metrics-for-version=0.12 brings it back",
        "num_requests_swapped | 0.9 | 0.9.2 | --show-hidden-metrics-for-version=0.8 brings it back"
      })
  void theHintNamesTheValueTheRunningReleaseAccepts(
      String family, String first, String last, String tail) {
    assertThat(hint(family, first, last)).endsWith(tail);
  }

  @org.junit.jupiter.api.Test
  void noHintOnceTheFamilyIsRemoved() {
    assertThat(hint("time_per_output_token_seconds", "0.15", "0.33")).isEmpty();
  }
}
