package dev.infermon.promql.promqltest;

/** A script did not parse, or an eval's result differed from what the script expects. */
public final class ScriptFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ScriptFailure(String message) {
    super(message);
  }

  public ScriptFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
