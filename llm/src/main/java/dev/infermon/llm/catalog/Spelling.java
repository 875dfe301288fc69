package dev.infermon.llm.catalog;

import java.util.ArrayList;
import java.util.List;

/**
 * How one target spells its engine's names: the engine and the name variant in use ({@code vllm:},
 * {@code ray_vllm:}, none for NVIDIA NIM, {@code sglang:}, {@code sglang_} behind the SGLang
 * gateway, which turns every {@code :} into {@code _}: a separator rule the catalog spells out as a
 * variant of its own, so rendering is always the variant's prefix before the catalog name). Every
 * query, reason and fix that names a family of a target renders it through the target's spelling,
 * so what infermon says matches what the target exposes. Immutable; thread-safe.
 *
 * @param engine the engine key ({@code vllm}, {@code sglang}, {@code dcgm})
 * @param variant the catalog's name variant
 */
public record Spelling(String engine, NameVariant variant) {
  public Spelling {
    if (engine == null || engine.isBlank() || variant == null) {
      throw new IllegalArgumentException("a spelling needs an engine and a name variant");
    }
  }

  /** The spellings of {@code e}, its default first. */
  public static List<Spelling> of(EngineCatalog e) {
    List<Spelling> out = new ArrayList<>();
    for (NameVariant v : e.variants()) {
      out.add(new Spelling(e.engine(), v));
    }
    return out;
  }

  /** The default spelling of {@code e} (its first variant: {@code vllm:}, {@code sglang:}). */
  public static Spelling defaultOf(EngineCatalog e) {
    return new Spelling(e.engine(), e.variants().get(0));
  }

  /** The prefix, possibly empty. */
  public String prefix() {
    return variant.prefix();
  }

  /** {@code entry}'s family name in this spelling ({@code http_*} families keep theirs). */
  public String render(MetricEntry entry) {
    return entry.familyName(variant);
  }

  /** The sample names of {@code entry} in this spelling. */
  public List<String> sampleNames(MetricEntry entry) {
    return entry.sampleNames(variant);
  }

  /** How the spelling reads in a message: its prefix, or {@code (no prefix)}. */
  public String label() {
    return prefix().isEmpty() ? "(no prefix)" : prefix();
  }

  /** {@code engine/prefix}, the form the export API and CLI take ({@code sglang/sglang_}). */
  public String key() {
    return engine + "/" + prefix();
  }

  @Override
  public String toString() {
    return key();
  }
}
