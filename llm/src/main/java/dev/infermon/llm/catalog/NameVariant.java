package dev.infermon.llm.catalog;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A spelling under which an engine's metrics appear: {@code vllm:} directly, {@code ray_vllm:}
 * through Ray, {@code sglang_} through the SGLang gateway, none through NVIDIA NIM. A variant may
 * add labels of its own, and a product that embeds the engine may serve only some of its families,
 * some of them under a name of its own (NIM serves vLLM's {@code request_success_total}, counted by
 * finish reason, as {@code request_finish_total}).
 *
 * @param prefix prepended to every catalog name that is not prefixless
 * @param optionalLabels labels the variant may add to every series
 * @param cite where the variant is documented
 * @param product the product that serves this spelling when it is not the engine itself ("NVIDIA
 *     NIM for LLMs"), or null
 * @param serves the catalog names the product serves, whatever the engine release; empty when the
 *     spelling carries every family of the release
 * @param renames catalog name to the whole family name the product gives it instead of prefix and
 *     catalog name; every key is a family it serves
 * @param requiredLabels labels every series of this spelling carries and that tell it from another
 *     engine's same names (TensorRT-LLM 1.0's unprefixed names carry {@code engine_type}, NVIDIA
 *     NIM's none): a family without them is not of this spelling; empty when the names suffice
 * @param own the catalog names only this product serves (NIM's {@code request_failure_total}): no
 *     other spelling of the engine carries them; each is among {@code serves}
 * @param releases the release lines that write this spelling (TensorRT-LLM's unprefixed names are
 *     1.0's only: 1.3 prefixed every name with {@code trtllm_}): a family no entry of which exists
 *     in one of them is not of this spelling; empty when every release writes it
 * @param concurrencyFlags how the product sets the number of requests one replica runs at once,
 *     where it differs from the engine's {@code concurrency_flags} (NIM passes vLLM's flags through
 *     {@code nim-serve}); empty when the engine's apply or none is documented
 */
public record NameVariant(
    String prefix,
    List<String> optionalLabels,
    String cite,
    String product,
    Set<String> serves,
    Map<String, String> renames,
    List<String> requiredLabels,
    Set<String> own,
    List<String> releases,
    List<String> concurrencyFlags) {
  public NameVariant {
    if (prefix == null || cite == null || cite.isBlank()) {
      throw new IllegalArgumentException("a name variant needs a prefix and a citation");
    }
    boolean noProduct = product == null || product.isBlank();
    if (!serves.isEmpty() && noProduct) {
      throw new IllegalArgumentException(
          "name variant \"" + prefix + "\" lists the families it serves but names no product");
    }
    if (!renames.isEmpty() && noProduct) {
      throw new IllegalArgumentException(
          "name variant \"" + prefix + "\" renames families but names no product");
    }
    optionalLabels = List.copyOf(optionalLabels);
    serves = Set.copyOf(serves);
    for (Map.Entry<String, String> r : renames.entrySet()) {
      if (!serves.isEmpty() && !serves.contains(r.getKey())) {
        throw new IllegalArgumentException(
            "name variant \""
                + prefix
                + "\" renames \""
                + r.getKey()
                + "\", which it does not serve");
      }
      if (r.getValue() == null || r.getValue().isBlank()) {
        throw new IllegalArgumentException(
            "name variant \"" + prefix + "\" renames \"" + r.getKey() + "\" to nothing");
      }
    }
    renames = Map.copyOf(renames);
    requiredLabels = List.copyOf(requiredLabels);
    own = Set.copyOf(own);
    releases = List.copyOf(releases);
    concurrencyFlags = List.copyOf(concurrencyFlags);
    if (!concurrencyFlags.isEmpty() && noProduct) {
      throw new IllegalArgumentException(
          "name variant \"" + prefix + "\" lists concurrency flags but names no product");
    }
    for (String o : own) {
      if (!serves.contains(o)) {
        throw new IllegalArgumentException(
            "name variant \"" + prefix + "\" owns \"" + o + "\", which it does not serve");
      }
    }
  }

  /** A product's spelling without required labels or own names. */
  public NameVariant(
      String prefix,
      List<String> optionalLabels,
      String cite,
      String product,
      Set<String> serves,
      Map<String, String> renames) {
    this(
        prefix,
        optionalLabels,
        cite,
        product,
        serves,
        renames,
        List.of(),
        Set.of(),
        List.of(),
        List.of());
  }

  /** A spelling of the engine itself, with every family of the release. */
  public NameVariant(String prefix, List<String> optionalLabels, String cite) {
    this(
        prefix,
        optionalLabels,
        cite,
        null,
        Set.of(),
        Map.of(),
        List.of(),
        Set.of(),
        List.of(),
        List.of());
  }

  /** The family name of catalog name {@code name} in this spelling: renamed, else prefixed. */
  public String familyName(String name) {
    String renamed = renames.get(name);
    return renamed != null ? renamed : prefix + name;
  }

  /**
   * Whether a family whose series carry {@code labelNames} can be of this spelling: it has every
   * required label ({@code null}: the labels are unknown, which only a spelling without required
   * labels accepts).
   */
  public boolean carries(Set<String> labelNames) {
    return requiredLabels.isEmpty()
        || (labelNames != null && labelNames.containsAll(requiredLabels));
  }

  /** Whether this spelling can carry the catalog family {@code name} at all. */
  public boolean serves(String name) {
    return serves.isEmpty() || serves.contains(name);
  }
}
