package dev.infermon.llm.export;

import dev.infermon.llm.catalog.Condition;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.MetricEntry;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.ReleaseLine;
import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.catalog.WriterGroup;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.TargetInventory;
import java.util.Optional;

/**
 * The families an export for a known fleet reads: per target, in the target's own spelling, the
 * families its page has, and those its releases create on first use (SGLang's aborted-requests
 * counter before the first abort), which appear without a new export. A family of a later release
 * than the targets run, one behind a flag or counters CSV the targets do not set, or one a page
 * lacks although the release writes it from the start (or with a family the page has: the page was
 * cut) is left out: on this fleet its query would stay empty, and lint would say so. Immutable.
 */
final class TargetPresence implements Presence {
  private final Inventory inventory;

  TargetPresence(Inventory inventory) {
    this.inventory = inventory;
  }

  @Override
  public boolean has(EngineCatalog engine, NameVariant variant, MetricEntry entry) {
    // per target in its own spelling: TensorRT-LLM 1.0's unprefixed names only on its targets
    if (!engine.serves(variant, entry.name())) {
      return false;
    }
    if (inventory.exposes(engine.engine(), variant.prefix(), entry.familyName(variant))) {
      return true;
    }
    for (TargetInventory t : inventory.inSpelling(engine.engine(), variant.prefix())) {
      if (comes(engine, variant, entry, t)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a family the target's page lacks appears there on first use: the family is created
   * lazily, is of no optional feature, a release the target may run has it, and no family its
   * writer writes with it is on the page (then the writer wrote it too, and the page lost it).
   */
  private static boolean comes(
      EngineCatalog engine, NameVariant variant, MetricEntry entry, TargetInventory t) {
    if (!entry.lazy() || conditional(entry.condition()) || !inRange(engine, entry, t)) {
      return false;
    }
    Optional<WriterGroup> g = engine.writerOf(entry.name());
    if (g.isEmpty() || t.detection().versions() == null) {
      return true;
    }
    for (String n : g.get().metrics()) {
      for (MetricEntry sib : engine.entries(n)) {
        if (!n.equals(entry.name())
            && t.families().containsKey(sib.familyName(variant))
            && implied(engine, t.detection().versions(), sib, entry)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether every release of {@code range} that has {@code sib} also has {@code entry}. */
  private static boolean implied(
      EngineCatalog engine, ReleaseRange range, MetricEntry sib, MetricEntry entry) {
    for (ReleaseLine v : engine.versions()) {
      if (range.contains(v) && sib.existsIn(v) && !entry.exposedIn(v)) {
        return false;
      }
    }
    return true;
  }

  /** Whether some target's page has the family {@code family} (a router's queue gauge). */
  boolean exposes(String family) {
    return inventory.targets().stream().anyMatch(t -> t.families().containsKey(family));
  }

  /** Whether a correctly configured target may lack the family (a flag, a CSV, hardware). */
  private static boolean conditional(Condition c) {
    return c.gated()
        || c.kind() == Condition.Kind.HARDWARE
        || c.kind() == Condition.Kind.CUSTOM_CSV;
  }

  /**
   * Whether a release the target may run exposes the family; a target of no known release is taken
   * for the newest.
   */
  private static boolean inRange(EngineCatalog engine, MetricEntry entry, TargetInventory t) {
    ReleaseRange range = t.detection().versions();
    if (range == null) {
      return entry.exposedIn(engine.newest());
    }
    for (ReleaseLine v : engine.versions()) {
      if (range.contains(v) && entry.exposedIn(v)) {
        return true;
      }
    }
    return false;
  }
}
