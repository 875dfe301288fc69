package dev.infermon.llm.catalog;

/**
 * A closed range of release lines, {@code first} to {@code last}; what an inventory can say about a
 * target's version from the families it exposes.
 */
public record ReleaseRange(ReleaseLine first, ReleaseLine last) {
  public ReleaseRange {
    if (first == null || last == null || first.compareTo(last) > 0) {
      throw new IllegalArgumentException("bad release range: " + first + ".." + last);
    }
  }

  /** Whether {@code v} lies in the range. */
  public boolean contains(ReleaseLine v) {
    return v.compareTo(first) >= 0 && v.compareTo(last) <= 0;
  }

  @Override
  public String toString() {
    return first.equals(last) ? first.name() : first.name() + "–" + last.name();
  }
}
