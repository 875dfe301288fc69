package dev.infermon.rules.template;

/**
 * A template failed while running, with Go's message: {@code template: NAME:1:3: executing "NAME"
 * at <humanize "one">: error calling humanize: ...}. Alert evaluation turns it into the text {@code
 * <error expanding template: ...>}, as Prometheus does.
 */
public final class TemplateExecException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TemplateExecException(String message) {
    super(message);
  }
}
