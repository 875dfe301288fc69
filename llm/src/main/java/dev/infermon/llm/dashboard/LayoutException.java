package dev.infermon.llm.dashboard;

/**
 * The dashboard layout data (panels.yaml) is invalid: the message names the file, the entry (a
 * panel, section or level id) and the field. The built-in layout is read once, when {@link
 * Dashboards} is first used, so this surfaces as that class's initialization error.
 */
public final class LayoutException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  LayoutException(String message) {
    super(message);
  }

  LayoutException(String message, Throwable cause) {
    super(message, cause);
  }
}
