package dev.infermon.rules.template;

/**
 * A template that cannot be parsed: a caller (rule file) mistake found at load time. The message is
 * Go's: {@code template: NAME:LINE: unclosed action}; {@link #line()} and {@link #column()} locate
 * the problem in the template text (column 0-based, as Go counts).
 */
public final class TemplateException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String templateName;
  private final int line;
  private final int column;
  private final String detail;

  public TemplateException(String templateName, int line, int column, String detail) {
    super("template: " + templateName + ":" + line + ": " + detail);
    this.templateName = templateName;
    this.line = line;
    this.column = column;
    this.detail = detail;
  }

  public String templateName() {
    return templateName;
  }

  /** 1-based line in the template text. */
  public int line() {
    return line;
  }

  /** 0-based column in that line. */
  public int column() {
    return column;
  }

  /** The problem without the position prefix. */
  public String detail() {
    return detail;
  }
}
