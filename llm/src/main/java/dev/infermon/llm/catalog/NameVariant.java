package dev.infermon.llm.catalog;

import java.util.List;

/**
 * A spelling under which an engine's metrics appear: {@code vllm:} directly, {@code ray_vllm:}
 * through Ray, {@code sglang_} through the SGLang gateway. A variant may add labels of its own.
 *
 * @param prefix prepended to every catalog name that is not prefixless
 * @param optionalLabels labels the variant may add to every series
 * @param cite where the variant is documented
 */
public record NameVariant(String prefix, List<String> optionalLabels, String cite) {
  public NameVariant {
    if (prefix == null || cite == null || cite.isBlank()) {
      throw new IllegalArgumentException("a name variant needs a prefix and a citation");
    }
    optionalLabels = List.copyOf(optionalLabels);
  }
}
