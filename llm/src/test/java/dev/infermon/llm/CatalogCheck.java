package dev.infermon.llm;

import dev.infermon.llm.catalog.BucketSpec;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.LabelSpec;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.inventory.FamilyInfo;
import dev.infermon.model.metadata.MetricType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a page's families against the catalog for one release of one engine: every family is
 * catalogued and exists in that release, with the same type, labels the entry allows (and those it
 * requires), and bucket bounds one of its specs makes. Returns the problems, one line each.
 */
final class CatalogCheck {
  private CatalogCheck() {}

  static List<String> problems(
      Catalog catalog, String engineName, String release, Map<String, FamilyInfo> families) {
    EngineCatalog engine = catalog.engine(engineName);
    ReleaseLine v = engine.version(release).orElseThrow();
    List<String> out = new ArrayList<>();
    for (FamilyInfo f : families.values()) {
      String name = f.name();
      if (ignored(engine, name)) {
        continue;
      }
      Optional<EngineCatalog.Match> m = engine.identifyFamily(name);
      if (m.isEmpty()) {
        out.add(name + ": not in the " + engineName + " catalog");
        continue;
      }
      NameVariant variant = m.get().variant();
      Optional<MetricEntry> e = engine.entry(m.get().entries().get(0).name(), v);
      if (e.isEmpty()) {
        out.add(name + ": catalogued, but not as existing in " + release);
        continue;
      }
      MetricEntry entry = e.get();
      if (f.type() != MetricType.UNKNOWN && f.type() != entry.declaredType()) {
        out.add(
            name
                + ": type "
                + f.type()
                + " on the page, "
                + entry.declaredType()
                + " declared in the catalog");
      }
      if (f.labelNames().isEmpty()) {
        continue; // a TYPE line without samples: nothing more to compare
      }
      Set<String> allowed = new TreeSet<>(variant.optionalLabels());
      Set<String> required = new TreeSet<>();
      for (LabelSpec l : entry.labelsIn(v)) {
        allowed.add(l.name());
        if (!l.optional()) {
          required.add(l.name());
        }
      }
      for (String l : f.labelNames()) {
        if (!entry.openLabels() && !allowed.contains(l)) {
          out.add(
              name
                  + ": label "
                  + l
                  + " not catalogued for "
                  + release
                  + " (allowed "
                  + allowed
                  + ")");
        }
      }
      for (String l : required) {
        if (!f.labelNames().contains(l)) {
          out.add(name + ": catalogued label " + l + " missing from the page");
        }
      }
      if (entry.type() == MetricType.HISTOGRAM && !f.bounds().isEmpty()) {
        boolean ok = false;
        for (BucketSpec b : entry.bucketsIn(v)) {
          ok |= b.matches(f.bounds());
        }
        if (!ok) {
          out.add(
              name
                  + ": buckets "
                  + f.bounds()
                  + " match no spec for "
                  + release
                  + ": "
                  + entry.bucketsIn(v));
        }
      }
    }
    return out;
  }

  private static boolean ignored(EngineCatalog engine, String family) {
    for (String p : engine.ignorePrefixes()) {
      if (family.startsWith(p)) {
        return true;
      }
    }
    return false;
  }
}
