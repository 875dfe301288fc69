package dev.infermon.rules.rulefmt;

import java.util.List;

/** A rule file that cannot be loaded; the message lists every problem, one per line. */
public final class RuleFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<RuleError> errors;

  public RuleFileException(List<RuleError> errors) {
    super(message(errors));
    this.errors = List.copyOf(errors);
  }

  public List<RuleError> errors() {
    return errors;
  }

  private static String message(List<RuleError> errors) {
    StringBuilder sb = new StringBuilder();
    for (RuleError e : errors) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(e);
    }
    return sb.toString();
  }
}
