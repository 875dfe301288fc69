package dev.infermon.llm.inventory;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.ReleaseRange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tells a target's engine, release range and enabled features from the families it exposes, using
 * the catalog's signatures: a release line is consistent when every family present exists in it;
 * among those, the lines where every always-present, eagerly created family is present win (when
 * any do; a truncated page or a family without samples yet falls back to consistency alone).
 * Stateless; thread-safe.
 */
public final class EngineDetector {
  private final Catalog catalog;

  public EngineDetector(Catalog catalog) {
    this.catalog = catalog;
  }

  /**
   * Detects from a set of family names (as {@link PageFamilies} or the stored series name them).
   */
  public Detection detect(Set<String> families) {
    Map<EngineCatalog, Integer> votes = new LinkedHashMap<>();
    Map<EngineCatalog, String> prefixes = new LinkedHashMap<>();
    for (String f : families) {
      catalog
          .identifyFamily(f)
          .ifPresent(
              id -> {
                if (id.match().entries().get(0).versionEvidence()) {
                  votes.merge(id.engine(), 1, Integer::sum);
                  prefixes.putIfAbsent(id.engine(), id.match().variant().prefix());
                }
              });
    }
    EngineCatalog engine = null;
    for (Map.Entry<EngineCatalog, Integer> v : votes.entrySet()) {
      if (engine == null || v.getValue() > votes.get(engine)) {
        engine = v.getKey();
      }
    }
    if (engine == null) {
      return new Detection(Detection.UNKNOWN, "", null, List.of(), List.of());
    }
    List<MetricEntry> present = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    Set<String> features = new LinkedHashSet<>();
    String prefix = prefixes.get(engine);
    for (String f : families) {
      java.util.Optional<EngineCatalog.Match> m = engine.identifyFamily(f);
      if (m.isPresent()) {
        MetricEntry e = m.get().entries().get(0);
        if (e.versionEvidence()) {
          present.addAll(m.get().entries());
        }
        if (e.condition().gated()) {
          features.add(e.condition().flag());
        }
      } else if (!prefix.isEmpty() && f.startsWith(prefix) && !ignored(engine, f)) {
        unknown.add(f);
      }
    }
    List<ReleaseLine> consistent = new ArrayList<>();
    for (ReleaseLine v : engine.versions()) {
      if (allExistIn(present, v)) {
        consistent.add(v);
      }
    }
    List<ReleaseLine> strict = new ArrayList<>();
    for (ReleaseLine v : consistent) {
      if (signaturePresent(engine, families, prefix, v)) {
        strict.add(v);
      }
    }
    List<ReleaseLine> chosen = strict.isEmpty() ? consistent : strict;
    ReleaseRange range =
        chosen.isEmpty() ? null : new ReleaseRange(chosen.get(0), chosen.get(chosen.size() - 1));
    return new Detection(engine.engine(), prefix, range, new ArrayList<>(features), unknown);
  }

  private static boolean ignored(EngineCatalog engine, String family) {
    for (String p : engine.ignorePrefixes()) {
      if (family.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /** Every present family (grouped by name) has an entry that exists in {@code v}. */
  private static boolean allExistIn(List<MetricEntry> present, ReleaseLine v) {
    Map<String, Boolean> ok = new LinkedHashMap<>();
    for (MetricEntry e : present) {
      ok.merge(e.name(), e.existsIn(v), Boolean::logicalOr);
    }
    return !ok.containsValue(false);
  }

  private static boolean signaturePresent(
      EngineCatalog engine, Set<String> families, String prefix, ReleaseLine v) {
    for (MetricEntry e : engine.metrics()) {
      if (e.lazy()
          || !e.versionEvidence()
          || e.condition().kind() != dev.infermon.llm.catalog.Condition.Kind.ALWAYS
          || !e.exposedIn(v)
          || e.prefixless()) {
        continue;
      }
      if (!families.contains(prefix + e.name())) {
        return false;
      }
    }
    return true;
  }
}
