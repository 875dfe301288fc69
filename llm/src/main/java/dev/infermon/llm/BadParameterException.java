package dev.infermon.llm;

/**
 * A request to one of the LLM layer's services carries a value the service cannot use: which
 * parameter, and why. A caller mistake, so an {@link IllegalArgumentException}; the HTTP API
 * answers it as {@code bad_data} naming the parameter ({@code invalid parameter "end": ...}), the
 * CLI prints the problem. Immutable.
 */
public final class BadParameterException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String parameter;

  /**
   * @param parameter the request's parameter, as the HTTP API and the CLI name it ({@code end},
   *     {@code engines})
   * @param problem what is wrong with it; the exception's message
   */
  public BadParameterException(String parameter, String problem) {
    super(problem);
    if (parameter == null || parameter.isEmpty()) {
      throw new IllegalArgumentException("a bad parameter needs its name");
    }
    this.parameter = parameter;
  }

  /** The parameter's name. */
  public String parameter() {
    return parameter;
  }
}
