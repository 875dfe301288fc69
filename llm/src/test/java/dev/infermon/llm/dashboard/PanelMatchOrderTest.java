package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A panel's own matchers ({@code match: {backend: ".*-pd", role: "decode"}}) are written in name
 * order, whatever order the map the caller gave iterates in: the query's text is the results
 * cache's key and what the exports and goldens hold, so it must be the same in every process (an
 * immutable {@code Map.copyOf} iterates in an order that changes from one JVM to the next).
 */
class PanelMatchOrderTest {
  @Test
  void aPanelsOwnMatchersAreInNameOrder() {
    Map<String, String> match = new LinkedHashMap<>();
    match.put("role", "decode");
    match.put("backend", ".*-pd");
    match.put("namespace", "prod");
    PromqlCompiler.Options o =
        new PromqlCompiler.Options(Filters.NONE, match, 0.95, "5m", Presence.of(Set.of()));
    assertThat(o.panelMatch().keySet()).containsExactly("backend", "namespace", "role");
    assertThat(Filters.NONE.matchers(o.panelMatch()))
        .containsExactly("backend=~\".*-pd\"", "namespace=~\"prod\"", "role=~\"decode\"");
  }
}
