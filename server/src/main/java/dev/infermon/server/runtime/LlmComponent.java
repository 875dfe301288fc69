package dev.infermon.server.runtime;

import dev.infermon.config.Config;
import dev.infermon.config.app.LlmConfig;
import dev.infermon.promql.EmbeddedQueryBackend;
import dev.infermon.tsdb.Tsdb;
import java.util.function.Supplier;

/**
 * The LLM layer bound to the query engine's backend ({@link LlmLayer}: dashboard, diagnosis, SLO
 * and lint services over one inventory; embedded or remote alike, and with the embedded TSDB the
 * dashboard knows which steps are final and caches their range results), and the {@code llm}
 * section the API reads per request (quantiles, SLOs).
 *
 * <p>Reload: the {@code llm} section takes effect from the next request on (the diagnosis's symptom
 * thresholds, {@code llm.alerts}, too); its alert pack and SLO rules are the rules' ({@link
 * RulesComponent}).
 */
final class LlmComponent implements Component {
  private final LlmLayer layer;
  private final QueryEngine engine;
  private final Supplier<Tsdb> tsdb;
  private volatile LlmConfig section;

  LlmComponent(LlmLayer layer, QueryEngine engine, Supplier<Tsdb> tsdb) {
    this.layer = layer;
    this.engine = engine;
    this.tsdb = tsdb;
  }

  @Override
  public String name() {
    return "llm";
  }

  @Override
  public void start(Config cfg) {
    section = cfg.llm();
    Tsdb db = tsdb.get();
    if (engine.backend() != null) {
      // diagnosis checks the symptoms of the alert pack as loaded: the section in effect
      layer.bind(
          engine.backend(),
          engine.inner() instanceof EmbeddedQueryBackend ? db::appendableMinTime : null,
          () -> section.alerts());
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
