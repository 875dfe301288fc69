package dev.infermon.llm.catalog;

/**
 * One release line of an engine ({@code 0.11}, {@code 0.5.9}, {@code main}), ordered by its place
 * in the catalog's {@code versions} list rather than by parsing: the engines' own version schemes
 * ({@code 0.4.3.post4}, {@code main}) do not compare as numbers.
 *
 * @param name as the catalog writes it
 * @param ordinal its index in the engine's list (oldest is 0)
 */
public record ReleaseLine(String name, int ordinal) implements Comparable<ReleaseLine> {
  public ReleaseLine {
    if (name == null || name.isEmpty() || ordinal < 0) {
      throw new IllegalArgumentException("bad release line: " + name + " #" + ordinal);
    }
  }

  @Override
  public int compareTo(ReleaseLine o) {
    return Integer.compare(ordinal, o.ordinal);
  }

  /** Whether this line is at or after {@code o}; a null {@code o} means "from the beginning". */
  public boolean atLeast(ReleaseLine o) {
    return o == null || ordinal >= o.ordinal;
  }

  /** Whether this line is before {@code o}; a null {@code o} means "no end". */
  public boolean before(ReleaseLine o) {
    return o == null || ordinal < o.ordinal;
  }

  @Override
  public String toString() {
    return name;
  }
}
