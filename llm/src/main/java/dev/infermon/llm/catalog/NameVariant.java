package dev.infermon.llm.catalog;

import java.util.List;
import java.util.Set;

/**
 * A spelling under which an engine's metrics appear: {@code vllm:} directly, {@code ray_vllm:}
 * through Ray, {@code sglang_} through the SGLang gateway, none through NVIDIA NIM. A variant may
 * add labels of its own, and a product that embeds the engine may serve only some of its families.
 *
 * @param prefix prepended to every catalog name that is not prefixless
 * @param optionalLabels labels the variant may add to every series
 * @param cite where the variant is documented
 * @param product the product that serves this spelling when it is not the engine itself ("NVIDIA
 *     NIM for LLMs"), or null
 * @param serves the catalog names the product serves, whatever the engine release; empty when the
 *     spelling carries every family of the release
 */
public record NameVariant(
    String prefix, List<String> optionalLabels, String cite, String product, Set<String> serves) {
  public NameVariant {
    if (prefix == null || cite == null || cite.isBlank()) {
      throw new IllegalArgumentException("a name variant needs a prefix and a citation");
    }
    if (!serves.isEmpty() && (product == null || product.isBlank())) {
      throw new IllegalArgumentException(
          "name variant \"" + prefix + "\" lists the families it serves but names no product");
    }
    optionalLabels = List.copyOf(optionalLabels);
    serves = Set.copyOf(serves);
  }

  /** A spelling of the engine itself, with every family of the release. */
  public NameVariant(String prefix, List<String> optionalLabels, String cite) {
    this(prefix, optionalLabels, cite, null, Set.of());
  }

  /** Whether this spelling can carry the catalog family {@code name} at all. */
  public boolean serves(String name) {
    return serves.isEmpty() || serves.contains(name);
  }
}
