package dev.infermon.config.yaml;

/**
 * Where a value came from: a file position (1-based line and column) or, with line 0, another
 * source such as an environment variable.
 */
public record Pos(String source, int line, int column) {
  /** A position outside any file, for example {@code env INFERMON_WEB_LISTEN_ADDRESS}. */
  public static Pos of(String source) {
    return new Pos(source, 0, 0);
  }

  @Override
  public String toString() {
    return line > 0 ? source + ":" + line + ":" + column : source;
  }
}
