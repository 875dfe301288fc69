package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.app.LlmConfig;

/**
 * The LLM layer bound to the query engine's stack ({@link LlmLayer}: dashboard, diagnosis, SLO and
 * lint services over one inventory; embedded or remote alike, the stack's joining, pool and results
 * cache shared with the API), and the {@code llm} section the API reads per request (quantiles,
 * SLOs).
 *
 * <p>Reload: the {@code llm} section takes effect from the next request on (the diagnosis's symptom
 * thresholds, {@code llm.alerts}, and the prices of {@code llm.cost} too); its alert pack and SLO
 * rules are the rules' ({@link RulesComponent}).
 */
final class LlmComponent implements Component {
  private final LlmLayer layer;
  private final QueryEngine engine;
  private volatile LlmConfig section;

  LlmComponent(LlmLayer layer, QueryEngine engine) {
    this.layer = layer;
    this.engine = engine;
  }

  @Override
  public String name() {
    return "llm";
  }

  @Override
  public void start(Config cfg) {
    section = cfg.llm();
    if (engine.backend() != null) {
      // diagnosis checks the symptoms of the alert pack as loaded: the section in effect
      layer.bind(
          engine.backend(), () -> section.alerts(), () -> section.cost(), () -> section.slos());
    }
  }

  @Override
  public void stop() {
    layer.unbind();
  }

  @Override
  public Change prepare(Config current, Config next) {
    LlmConfig n = next.llm();
    return n.equals(section) ? Change.NONE : () -> section = n;
  }

  /** The {@code llm} section in effect. */
  LlmConfig section() {
    return section;
  }
}
