package dev.infermon.config;

import dev.infermon.config.yaml.Problem;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A configuration that cannot be used. The message lists every problem found, one per line, each as
 * {@code source:line:col: path: message}; {@link #problems()} has them as values.
 */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient List<Problem> problems;

  ConfigException(String source, List<Problem> problems) {
    super(message(source, problems));
    this.problems = List.copyOf(problems);
  }

  private static String message(String source, List<Problem> problems) {
    return "invalid configuration "
        + source
        + " ("
        + problems.size()
        + (problems.size() == 1 ? " problem" : " problems")
        + "):\n"
        + problems.stream().map(p -> "  " + p).collect(Collectors.joining("\n"));
  }

  /** Every problem, in the order found (file order, mostly). */
  public List<Problem> problems() {
    return problems;
  }
}
