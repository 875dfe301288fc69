package dev.infermon.llm.inventory;

import dev.infermon.llm.catalog.ReleaseRange;
import java.util.List;

/**
 * What the families of one target say about it.
 *
 * @param engine the catalog engine ({@code vllm}, {@code sglang}, {@code dcgm}) or {@code unknown}
 * @param prefix the name variant in use ({@code vllm:}, {@code ray_vllm:}, {@code sglang_}, ...)
 * @param versions the release lines consistent with the families, or null when unknown
 * @param features flags and options whose gated families are present
 * @param unknownFamilies families of the engine's namespace that the catalog does not know
 */
public record Detection(
    String engine,
    String prefix,
    ReleaseRange versions,
    List<String> features,
    List<String> unknownFamilies) {
  public static final String UNKNOWN = "unknown";

  public Detection {
    features = List.copyOf(features);
    unknownFamilies = List.copyOf(unknownFamilies);
  }
}
