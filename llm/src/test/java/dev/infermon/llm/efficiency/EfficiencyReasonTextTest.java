package dev.infermon.llm.efficiency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.signals.Signal;
import org.junit.jupiter.api.Test;

/**
 * The efficiency figures' reasons name the families a pod lacks after the signal's display name
 * ({@code generation tokens: vllm:generation_tokens_total or ...}), never the catalog's key ({@code
 * generation_tokens}), which is no word a user reads.
 */
class EfficiencyReasonTextTest {
  @Test
  void aReasonNamesTheSignalByItsDisplayName() {
    Catalog catalog = Catalog.builtIn();
    for (Signal s :
        new Signal[] {
          Signal.GENERATION_TOKENS, Signal.GPU_COUNT, Signal.REQUESTS_RUNNING, Signal.GPU_ENERGY
        }) {
      String text = EfficiencyService.families(catalog, s);
      assertThat(text).as("%s", s).startsWith(s.displayName() + ": ");
      assertThat(text).as("%s", s).doesNotContain("signal ").doesNotContain(s.key() + ":");
    }
    assertThat(EfficiencyService.families(catalog, Signal.GENERATION_TOKENS))
        .contains("vllm:generation_tokens_total");
  }
}
