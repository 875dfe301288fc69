package dev.infermon.llm.dashboard;

/**
 * A LoRA adapter vLLM listed in a window, with the model it is an adapter of (the pods' {@code
 * model_name}: vLLM counts an adapter's requests under its base model). Immutable.
 *
 * @param model the base model's served name
 * @param adapter the adapter's name, as vLLM lists it
 */
public record LoraAdapter(String model, String adapter) {
  /** Validates. */
  public LoraAdapter {
    if (model == null || adapter == null || adapter.isEmpty()) {
      throw new IllegalArgumentException("model and a non-empty adapter are required");
    }
  }
}
