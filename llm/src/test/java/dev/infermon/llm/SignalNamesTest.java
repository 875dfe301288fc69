package dev.infermon.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.llm.signals.Signal;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reasons name a signal by what a user reads, so every signal needs a name of its own. */
class SignalNamesTest {
  @Test
  void everySignalHasADistinctDisplayNameThatIsNotItsKey() {
    Map<String, Signal> byName = new HashMap<>();
    for (Signal s : Signal.values()) {
      String name = s.displayName();
      assertThat(name).as(s.key()).isNotBlank().isEqualTo(name.strip());
      assertThat(name).as(s.key()).isNotEqualTo(s.key()).doesNotContain("_");
      Signal before = byName.put(name, s);
      assertThat(before).as(name + " named twice").isNull();
    }
    assertThat(byName).hasSize(Signal.values().length);
  }

  @Test
  void namesReadAsWords() {
    assertThat(Signal.SPEC_DRAFTS.displayName()).isEqualTo("speculative drafts");
    assertThat(Signal.TPOT.displayName()).isEqualTo("time per output token");
    assertThat(Signal.CACHED_PROMPT_TOKENS.displayName()).isEqualTo("cached prompt tokens");
  }
}
