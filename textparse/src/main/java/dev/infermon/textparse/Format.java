package dev.infermon.textparse;

/** The exposition formats this module parses. */
public enum Format {
  /**
   * The Prometheus text format, 0.0.4, including 1.0.0's quoted UTF-8 names: {@code text/plain}.
   */
  TEXT("text/plain; version=0.0.4; charset=utf-8"),
  /** OpenMetrics 1.0 text: {@code application/openmetrics-text}. */
  OPENMETRICS("application/openmetrics-text; version=1.0.0; charset=utf-8");

  private final String contentType;

  Format(String contentType) {
    this.contentType = contentType;
  }

  /** The Content-Type a target sends with a page in this format. */
  public String contentType() {
    return contentType;
  }
}
