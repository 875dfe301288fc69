package dev.infermon.lint.slo;

import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.signals.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where one engine measures an SLI, from the catalog's signal mapping: the histogram of a latency
 * SLI, or the finished and failed request counters of the success SLI. Spellings are the engine's
 * default prefix and, for SGLang, the gateway's {@code sglang_}; Ray-wrapped vLLM names are not
 * covered. Immutable.
 *
 * @param engine the engine
 * @param family the latency histogram (latency SLIs), without prefix
 * @param entry the histogram's catalog entry (latency SLIs)
 * @param total the counter of all finished requests and its matchers (success SLI)
 * @param failed the counter of failed requests and its matchers (success SLI)
 */
record SliSource(
    EngineCatalog engine,
    String family,
    MetricEntry entry,
    SignalSource total,
    SignalSource failed) {
  /** The source of {@code sli} for {@code engine}, if the engine measures it. */
  static Optional<SliSource> of(EngineCatalog engine, String sli) {
    if (sli.equals("success")) {
      List<SignalSource> total = engine.sources(Signal.REQUESTS_FINISHED);
      List<SignalSource> failed = engine.sources(Signal.REQUESTS_FAILED);
      if (total.isEmpty() || failed.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new SliSource(engine, null, null, total.get(0), failed.get(0)));
    }
    Signal s = signal(sli);
    List<SignalSource> sources = engine.sources(s);
    if (sources.isEmpty()) {
      return Optional.empty();
    }
    String family = sources.get(0).metrics().get(0);
    List<MetricEntry> entries = engine.entries(family);
    if (entries.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SliSource(engine, family, entries.get(entries.size() - 1), null, null));
  }

  static Signal signal(String sli) {
    switch (sli) {
      case "ttft":
        return Signal.TTFT;
      case "tpot":
        return Signal.TPOT;
      case "itl":
        return Signal.ITL;
      case "e2e":
        return Signal.E2E_LATENCY;
      default:
        throw new IllegalArgumentException("not a latency SLI: \"" + sli + "\"");
    }
  }

  /** The prefixes the rules cover. */
  List<String> prefixes() {
    List<String> out = new ArrayList<>();
    for (NameVariant v : engine.variants()) {
      if (!v.prefix().startsWith("ray_")) {
        out.add(v.prefix());
      }
    }
    return out;
  }

  /** The sample names of {@code metric} + {@code suffix} under every covered prefix. */
  List<String> names(String metric, String suffix) {
    List<String> out = new ArrayList<>();
    for (String p : prefixes()) {
      out.add(p + metric + suffix);
    }
    return out;
  }

  /** The matchers a signal source adds ({@code finished_reason=~"abort|error"}). */
  static List<String> matchers(SignalSource src) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> m : src.match().entrySet()) {
      out.add(m.getKey() + (m.getValue().isEmpty() ? "=" : "=~") + quote(m.getValue()));
    }
    return out;
  }

  static String quote(String v) {
    return "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
