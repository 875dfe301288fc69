package dev.infermon.llm.inventory;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Every target of the fleet with its engine, release range, features and families, at one time. The
 * dashboard compiles panels for the families present here and explains empty panels from it.
 * Immutable; thread-safe.
 *
 * @param targets the targets, inference pods and exporters alike
 */
public record Inventory(List<TargetInventory> targets) {
  public static final Inventory EMPTY = new Inventory(List.of());

  public Inventory {
    targets = List.copyOf(targets);
  }

  /** The engines of at least one target, in target order. */
  public Set<String> engines() {
    Set<String> out = new LinkedHashSet<>();
    for (TargetInventory t : targets) {
      if (!t.engine().equals(Detection.UNKNOWN)) {
        out.add(t.engine());
      }
    }
    return out;
  }

  /** Every family name present on any target. */
  public Set<String> families() {
    Set<String> out = new LinkedHashSet<>();
    for (TargetInventory t : targets) {
      out.addAll(t.families().keySet());
    }
    return out;
  }

  /**
   * Every label name the series of any target's families carry (a family's {@link
   * FamilyInfo#labelNames}), target labels included.
   */
  public Set<String> labelNames() {
    Set<String> out = new LinkedHashSet<>();
    for (TargetInventory t : targets) {
      for (FamilyInfo f : t.families().values()) {
        out.addAll(f.labelNames());
      }
    }
    return out;
  }

  /**
   * The targets detected as {@code engine} whose names are in the spelling of {@code prefix} (the
   * detection's name variant: {@code vllm:}, {@code ""} for NVIDIA NIM's or TensorRT-LLM 1.0's
   * unprefixed names), in target order.
   */
  public List<TargetInventory> inSpelling(String engine, String prefix) {
    return targets.stream()
        .filter(t -> t.engine().equals(engine) && t.detection().prefix().equals(prefix))
        .toList();
  }

  /**
   * Whether a target detected as {@code engine}, in the spelling of {@code prefix}, has the family
   * {@code family}: a name two engines' spellings share (TensorRT-LLM 1.0's unprefixed {@code
   * time_to_first_token_seconds}, NVIDIA NIM's) is that engine's only where its own targets have
   * it.
   */
  public boolean exposes(String engine, String prefix, String family) {
    return inSpelling(engine, prefix).stream().anyMatch(t -> t.families().containsKey(family));
  }

  /** The targets that pass {@code filter}. */
  public Inventory filter(Predicate<TargetInventory> filter) {
    return new Inventory(targets.stream().filter(filter).toList());
  }
}
