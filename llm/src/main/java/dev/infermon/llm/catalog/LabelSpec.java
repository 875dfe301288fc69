package dev.infermon.llm.catalog;

/**
 * One label a metric carries, with the releases that have it.
 *
 * @param name the label name
 * @param since first release with it, or null for all
 * @param until first release without it, or null for none
 * @param optional whether a series may lack it in those releases (attribution, DP ranks,
 *     priorities)
 * @param note why, when it matters
 */
public record LabelSpec(
    String name, ReleaseLine since, ReleaseLine until, boolean optional, String note) {
  public LabelSpec {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("label name must not be empty");
    }
  }

  /** Whether the label exists in release {@code v}. */
  public boolean in(ReleaseLine v) {
    return v.atLeast(since) && v.before(until);
  }
}
