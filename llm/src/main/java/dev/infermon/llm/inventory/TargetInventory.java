package dev.infermon.llm.inventory;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One scrape target as the inventory sees it.
 *
 * @param targetLabels the target's own labels ({@code job}, {@code instance}, {@code namespace},
 *     {@code pod}, {@code workload_name}, {@code backend}, {@code role}) where known
 * @param up whether the last scrape succeeded (true when unknown, as for a live scrape)
 * @param detection engine, release range, features
 * @param families the families present, by name
 * @param models the {@code model_name} values its series carry (a model-level panel's series name
 *     the model, not the engine: these tell which engine a series came from)
 */
public record TargetInventory(
    Map<String, String> targetLabels,
    boolean up,
    Detection detection,
    Map<String, FamilyInfo> families,
    Set<String> models) {
  public TargetInventory {
    targetLabels = java.util.Collections.unmodifiableMap(new TreeMap<>(targetLabels));
    families = java.util.Collections.unmodifiableMap(new TreeMap<>(families));
    models = java.util.Collections.unmodifiableSet(new TreeSet<>(models));
  }

  /** A target whose series' model names were not read (a live page). */
  public TargetInventory(
      Map<String, String> targetLabels,
      boolean up,
      Detection detection,
      Map<String, FamilyInfo> families) {
    this(targetLabels, up, detection, families, Set.of());
  }

  /** The engine key, or {@code unknown}. */
  public String engine() {
    return detection.engine();
  }

  /** A target label's value, or "" when absent. */
  public String label(String name) {
    return targetLabels.getOrDefault(name, "");
  }
}
