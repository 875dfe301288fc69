package dev.infermon.llm.dashboard;

import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.Spelling;
import java.util.Set;

/**
 * Which families a compiled query may reference: those an inventory found (so a query never names a
 * family no target exposes), or, for an export with no fleet at hand, every family of the chosen
 * spellings.
 */
@FunctionalInterface
public interface Presence {
  /** Whether {@code entry} spelled as {@code variant} should appear in queries. */
  boolean has(EngineCatalog engine, NameVariant variant, MetricEntry entry);

  /**
   * The families named in {@code families} (as an inventory lists them). A spelling told apart only
   * by its labels (TensorRT-LLM 1.0's unprefixed names, which are NVIDIA NIM's too) is never
   * queried: a selector by name would read the other engine's series as well.
   */
  static Presence of(Set<String> families) {
    return (e, v, m) -> v.requiredLabels().isEmpty() && families.contains(m.familyName(v));
  }

  /**
   * Every family of the engines of {@code spellings}, in those spellings only (none of a spelling
   * told apart only by its labels, as in {@link #of}).
   */
  static Presence spellings(Set<Spelling> spellings) {
    Set<Spelling> copy = Set.copyOf(spellings);
    return (e, v, m) -> v.requiredLabels().isEmpty() && copy.contains(new Spelling(e.engine(), v));
  }
}
