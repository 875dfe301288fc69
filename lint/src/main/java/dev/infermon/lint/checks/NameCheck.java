package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.lint.Location;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.History;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.promql.parser.VectorSelector;
import java.util.HashSet;
import java.util.Set;

/**
 * Metric names against what is exposed: unknown names (with the likely rename), counters without
 * {@code _total}, the other spelling of an engine's prefix, deprecated, hidden and removed names
 * (with the version and the replacement), and conditional metrics whose flag is off. Names outside
 * the engines' namespaces ({@code up}, node metrics, names recorded by the rules under check) are
 * not judged: lint cannot know them. Each name is reported once per query. Why a name is missing is
 * {@link MissingName}'s to say; the fixes history offers are {@link NameHistory}'s.
 */
final class NameCheck {
  private NameCheck() {}

  static void run(QueryScope s) {
    Set<String> done = new HashSet<>();
    for (VectorSelector vs : s.selectors()) {
      String name = ExprWalk.metricName(vs);
      if (name == null || s.recorded.contains(name)) {
        continue;
      }
      // the selector's info: engine_type!="" reads TensorRT-LLM 1.0's name, not NIM's
      MetricInfo info = s.info(vs);
      Reference.CatalogHit h = info.hit();
      if (!done.add(
          name + (h == null ? "" : " " + h.engine().engine() + "/" + h.variant().prefix()))) {
        continue;
      }
      Location at = s.at(vs);
      if (info.hit() == null) {
        if (info.router() != null || s.ref.catalog().nonEngine().judges(name)) {
          RouterNames.check(s, info, at);
          continue;
        }
        if (NameSpellings.lookalike(s, info, at)
            || NameSpellings.colonsReplaced(s, name, at)
            || NameSpellings.prefixMisspelled(s, info, at)) {
          continue;
        }
        if (!inEngineNamespace(s, name)) {
          continue;
        }
      }
      if (info.hit() != null && Alternatives.covered(s, vs, info)) {
        continue; // one of several spellings or releases of the same quantity, joined with or
      }
      if (info.created()) {
        created(s, info, at);
      } else if (info.exposed()) {
        deprecated(s, info, at);
      } else {
        MissingName.report(s, info, at);
      }
    }
  }

  /** A {@code _created} gauge where the engine's release or collector writes none. */
  private static void created(QueryScope s, MetricInfo info, Location at) {
    if (info.exposed()) {
      return;
    }
    EngineCatalog e = info.hit().engine();
    s.report(
        CheckId.UNKNOWN_METRIC,
        at,
        info.sample()
            + " is not exposed: "
            + e.title()
            + " writes _created series from "
            + e.createdSince()
            + " in single-process mode only ("
            + runs(s, e, s.ref.releases(e))
            + ").",
        "",
        info.sample());
  }

  /** Whether a name is spelled like an engine's metrics (a prefix of one of its variants). */
  static boolean inEngineNamespace(QueryScope s, String name) {
    if (name.startsWith("DCGM_")) {
      return true;
    }
    for (EngineCatalog e : s.ref.catalog().engines()) {
      for (NameVariant v : e.variants()) {
        if (!v.prefix().isEmpty() && name.startsWith(v.prefix())) {
          return true;
        }
      }
    }
    return false;
  }

  private static void deprecated(QueryScope s, MetricInfo info, Location at) {
    Reference.CatalogHit hit = info.hit();
    if (hit == null) {
      return;
    }
    // the release of the targets that expose it: an old pod keeps a name the newest dropped
    ReleaseLine v = s.ref.releases(hit.engine()).last();
    for (TargetInventory t : info.targets()) {
      if (t.detection().versions() != null) {
        v = t.detection().versions().last();
        break;
      }
    }
    MetricEntry e = entryAround(hit, v);
    History h = e.history();
    if (h.deprecated() != null && v.atLeast(h.deprecated())) {
      s.report(
          CheckId.DEPRECATED_METRIC,
          at,
          info.sample()
              + " is deprecated since "
              + hit.engine().title()
              + " "
              + h.deprecated()
              + NameHistory.gone(h)
              + ".",
          NameHistory.replacement(s, hit, h, info.sample()),
          info.sample());
    }
  }

  /** The entry in effect in {@code v}, hidden ones included; else the newest. */
  private static MetricEntry entryAround(Reference.CatalogHit hit, ReleaseLine v) {
    for (MetricEntry m : hit.entries()) {
      if (m.existsIn(v)) {
        return m;
      }
    }
    return hit.latest();
  }

  static String runs(QueryScope s, EngineCatalog engine, ReleaseRange r) {
    if (s.ref.mode() == Reference.Mode.CATALOG || s.ref.targetsOf(engine).isEmpty()) {
      return "judged by " + engine.title() + "'s newest release " + engine.newest();
    }
    return "the endpoints run " + engine.title() + " " + r;
  }
}
