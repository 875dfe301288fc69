package dev.infermon.simulator.model;

import java.util.List;

/**
 * The LoRA adapters an engine serves ({@code --enable-lora --lora-modules ... --max-loras N}) and
 * how requests pick one: request {@code i} of an engine asks for adapter {@code i mod n}, so every
 * adapter gets its share and a test can tell which request used which. The scheduler runs requests
 * of at most {@link #maxLoras()} distinct adapters at once, as vLLM V1's does: a waiting request
 * whose adapter would be one too many is skipped until a slot frees ("Scheduling would exceed
 * max_loras, skip", vllm/v1/core/sched/scheduler.py). Immutable.
 *
 * @param names the adapters, in the order requests cycle through them; empty: no LoRA
 * @param maxLoras distinct adapters a batch may hold ({@code --max-loras}, vLLM's default 1)
 */
public record LoraAdapters(List<String> names, int maxLoras) {
  /** No LoRA: requests use the base model. */
  public static final LoraAdapters NONE = new LoraAdapters(List.of(), 1);

  /** Validates: unique names without {@code ,} (the list separator) or quotes; 1..64 slots. */
  public LoraAdapters {
    if (names == null) {
      throw new IllegalArgumentException("names must not be null (List.of() for no LoRA)");
    }
    names = List.copyOf(names);
    for (String n : names) {
      if (n.isBlank() || n.matches(".*[,\"\\\\\\s].*")) {
        throw new IllegalArgumentException(
            "bad LoRA adapter name: \"" + n + "\" (no blanks, commas, quotes or backslashes)");
      }
    }
    if (names.stream().distinct().count() != names.size()) {
      throw new IllegalArgumentException("LoRA adapter names repeat: " + names);
    }
    if (maxLoras < 1 || maxLoras > 64) {
      throw new IllegalArgumentException("maxLoras must be in [1, 64], got " + maxLoras);
    }
  }

  /** Whether requests use adapters at all. */
  public boolean enabled() {
    return !names.isEmpty();
  }

  /** The adapter request {@code id} asks for, or null without LoRA. */
  public String adapterFor(long id) {
    return names.isEmpty() ? null : names.get((int) Math.floorMod(id, (long) names.size()));
  }
}
