package dev.infermon.llm.inventory;

import dev.infermon.llm.catalog.ReleaseRange;
import dev.infermon.llm.catalog.Spelling;
import java.util.List;

/**
 * What the families of one target say about it.
 *
 * @param engine the catalog engine ({@code vllm}, {@code sglang}, {@code dcgm}) or {@code unknown}
 * @param prefix the name variant in use ({@code vllm:}, {@code ray_vllm:}, {@code sglang_}, ...)
 * @param versions the release lines consistent with the families, or null when unknown
 * @param features flags and options whose gated families are present
 * @param unknownFamilies families of the engine's namespace that the catalog does not know
 * @param spelling the spelling the target's names are in, or null when no family told it (an
 *     unknown engine, a target down)
 * @param lookalike for a target of no known engine whose names are an engine's names in a spelling
 *     the catalog does not know, what they look like and the spelling to use; else null
 */
public record Detection(
    String engine,
    String prefix,
    ReleaseRange versions,
    List<String> features,
    List<String> unknownFamilies,
    Spelling spelling,
    Lookalike lookalike) {
  public static final String UNKNOWN = "unknown";

  public Detection {
    features = List.copyOf(features);
    unknownFamilies = List.copyOf(unknownFamilies);
    if (spelling != null && !spelling.prefix().equals(prefix)) {
      throw new IllegalArgumentException(
          "prefix \"" + prefix + "\" is not the spelling's (" + spelling + ")");
    }
  }

  /** A detection without spelling or lookalike (an engine told by labels only, or none). */
  public static Detection of(String engine) {
    return new Detection(engine, "", null, List.of(), List.of(), null, null);
  }
}
