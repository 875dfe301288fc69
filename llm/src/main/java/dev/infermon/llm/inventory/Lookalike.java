package dev.infermon.llm.inventory;

import dev.infermon.llm.catalog.Spelling;
import java.util.List;

/**
 * A target whose names match no engine of the catalog but are one engine's names in a spelling the
 * catalog does not know ({@code vllm_num_requests_running}: a relabelling turned {@code :} into
 * {@code _}; {@code num_running_reqs}: SGLang without its prefix). infermon reads none of them
 * until they are relabelled to a known spelling.
 *
 * @param engine the engine the names look like
 * @param title the engine's display name
 * @param seenPrefix the prefix the target puts before the engine's names ("" for none)
 * @param use the spelling to relabel them to
 * @param examples a few of the target's names, as exposed
 */
public record Lookalike(
    String engine, String title, String seenPrefix, Spelling use, List<String> examples) {
  public Lookalike {
    if (engine == null || title == null || seenPrefix == null || use == null) {
      throw new IllegalArgumentException("a lookalike needs an engine, a prefix and a spelling");
    }
    examples = List.copyOf(examples);
  }

  /** What a user reads: what the names look like and how to make infermon read them. */
  public String message() {
    String seen = seenPrefix.isEmpty() ? "without a prefix" : "with the prefix " + seenPrefix;
    String example = examples.isEmpty() ? "" : " (" + String.join(", ", examples) + ")";
    return "the names match no engine but look like "
        + title
        + "'s "
        + seen
        + example
        + ", a spelling infermon does not know: relabel them to "
        + use.label()
        + " (metric_relabel_configs replacing the prefix) for infermon to read them";
  }
}
