package dev.infermon.llm.catalog;

/**
 * A metric's life: deprecated in a release (still shown, HELP says so), hidden in one (vLLM's
 * {@code --show-hidden-metrics-for-version} brings it back), removed in one; and what it was called
 * before or what replaces it. Null fields are unknown or do not apply.
 */
public record History(
    String renamedFrom,
    String replacedBy,
    ReleaseLine deprecated,
    ReleaseLine hidden,
    ReleaseLine removed,
    String note) {
  public static final History NONE = new History(null, null, null, null, null, null);

  /** The first release where the metric is no longer shown by default, or null. */
  public ReleaseLine goneFrom() {
    if (hidden != null && (removed == null || hidden.compareTo(removed) < 0)) {
      return hidden;
    }
    return removed;
  }
}
