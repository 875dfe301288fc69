package dev.infermon.llm.dashboard;

import static dev.infermon.llm.dashboard.Selectors.ratio;
import static dev.infermon.llm.dashboard.Selectors.selector;

import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.dashboard.PromqlCompiler.Options;
import dev.infermon.llm.dashboard.Selectors.Resolved;
import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Measures derived from several signals: the success rate, decode seconds per token and the LoRA
 * views. Stateless; thread-safe.
 */
final class DerivedQueries {
  private final Selectors selectors;
  private final CounterQueries counters;

  DerivedQueries(Selectors selectors, CounterQueries counters) {
    this.selectors = selectors;
    this.counters = counters;
  }

  String successRate(List<String> g, Options o) {
    String finished = counters.counter(Signal.REQUESTS_FINISHED, "", g, o, "rate", null);
    if (finished == null) {
      return null;
    }
    String failed = counters.counter(Signal.REQUESTS_FAILED, "", g, o, "rate", null);
    // engines that create their failure counter lazily: no series yet means no failure yet
    Set<String> lazy = new LinkedHashSet<>();
    for (EngineCatalog e : selectors.catalog().engines()) {
      for (SignalSource src : e.sources(Signal.REQUESTS_FAILED)) {
        if (src.zeroWhenAbsent()) {
          lazy.add(e.engine());
        }
      }
    }
    String zero =
        lazy.isEmpty() ? null : counters.counter(Signal.REQUESTS_FINISHED, "", g, o, "rate", lazy);
    if (zero != null) {
      failed = failed == null ? "0 * " + zero : "(" + failed + ") or 0 * " + zero;
    }
    if (failed == null) {
      return null;
    }
    return "1 - (" + failed + ") / (" + finished + " > 0)";
  }

  /**
   * Decode seconds per token decoded ({@link Measure.DecodePerToken}); the tokens are counted only
   * on the engines that measure decode time, so a model served by several engines divides like by
   * like.
   */
  String decodePerToken(List<String> g, Options o) {
    Set<String> engines = new LinkedHashSet<>();
    selectors.resolve(Signal.DECODE_TIME, g, o).forEach(r -> engines.add(r.engine().engine()));
    String seconds = counters.counter(Signal.DECODE_TIME, "_sum", g, o, "rate", engines);
    String tokens = counters.counter(Signal.GENERATION_LENGTH, "_sum", g, o, "rate", engines);
    String requests = counters.counter(Signal.GENERATION_LENGTH, "_count", g, o, "rate", engines);
    if (seconds == null || tokens == null || requests == null) {
      return null;
    }
    return ratio(seconds, tokens + " - " + requests);
  }

  /**
   * A LoRA view ({@link LoraQueries}): the lora family has no {@code model_name}, so its series are
   * selected without the model filter and joined to the pods in scope, which carry it.
   */
  String lora(Measure.Lora.View view, List<String> g, Options o) {
    if (view == Measure.Lora.View.SLOTS_USED || view == Measure.Lora.View.SLOTS_MAX) {
      return slots(view, g, o);
    }
    return lists(view, g, o);
  }

  /**
   * LoRA slots: read from the adapter lists on the engines whose slot source is their lists family
   * (vLLM's lora_requests_info), as a gauge elsewhere (SGLang's lora_pool_slots_*). Both are sums
   * per group, so where both engines serve a group the two add up: (A + B) or A or B.
   */
  private String slots(Measure.Lora.View view, List<String> g, Options o) {
    Signal s =
        view == Measure.Lora.View.SLOTS_USED ? Signal.LORA_SLOTS_USED : Signal.LORA_SLOTS_TOTAL;
    Set<String> fromLists = new LinkedHashSet<>();
    for (EngineCatalog e : selectors.catalog().engines()) {
      Set<String> lists = new LinkedHashSet<>();
      e.sources(Signal.LORA_ADAPTERS).forEach(src -> lists.addAll(src.metrics()));
      if (!lists.isEmpty()
          && e.sources(s).stream().anyMatch(src -> lists.containsAll(src.metrics()))) {
        fromLists.add(e.engine());
      }
    }
    String a = lists(view, g, o);
    String b = counters.gauge(s, g, o, fromLists);
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return "((" + a + ") + (" + b + ")) or (" + a + ") or (" + b + ")";
  }

  private String lists(Measure.Lora.View view, List<String> g, Options o) {
    String pods = selectors.podMap(g, o);
    Options noModel =
        new Options(
            o.filters().without("model_name"),
            o.panelMatch(),
            o.quantile(),
            o.window(),
            o.presence(),
            o.step());
    List<String> families = new ArrayList<>();
    for (Resolved r : selectors.resolve(Signal.LORA_ADAPTERS, g, o)) {
      for (String f : r.families()) {
        families.add(selector(r, f, "", noModel));
      }
    }
    if (pods == null || families.isEmpty()) {
      return null;
    }
    return LoraQueries.compile(view, families, pods, g, o.filters().adapter(), o.step());
  }
}
