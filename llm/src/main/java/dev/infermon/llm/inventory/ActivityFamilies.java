package dev.infermon.llm.inventory;

import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.SignalSource;
import dev.infermon.llm.signals.Signal;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The families whose {@link FamilyInfo.Activity} something reads: the sources of every engine's
 * signals, in every spelling. Only {@link Traffic} (the per-request signals' sources) and the
 * dashboard's empty-panel reasons (a panel's signal's sources on a target) look at a family's
 * activity, so the inventory's activity queries select these families' series and no others (GPU
 * exporter fields and engine families no panel reads were most of the series they selected).
 * Immutable.
 */
final class ActivityFamilies {
  private final Set<String> families;
  private final Set<String> sampleNames;

  private ActivityFamilies(Set<String> families, Set<String> sampleNames) {
    this.families = Set.copyOf(families);
    this.sampleNames = Set.copyOf(sampleNames);
  }

  /** The signal sources' families of {@code catalog}'s engines, under each of their variants. */
  static ActivityFamilies of(Catalog catalog) {
    Set<String> families = new LinkedHashSet<>();
    Set<String> samples = new LinkedHashSet<>();
    for (EngineCatalog e : catalog.engines()) {
      for (Signal s : Signal.values()) {
        for (SignalSource src : e.sources(s)) {
          for (String name : src.metrics()) {
            for (MetricEntry m : e.entries(name)) {
              for (NameVariant v : e.variants()) {
                families.add(m.familyName(v));
                samples.addAll(m.sampleNames(v));
              }
            }
          }
        }
      }
    }
    return new ActivityFamilies(families, samples);
  }

  /** Whether {@code family}'s activity is read by anything. */
  boolean read(String family) {
    return families.contains(family);
  }

  /** The sample names the catalog gives these families (a stored family may have more). */
  Set<String> sampleNames() {
    return sampleNames;
  }
}
