package dev.infermon.promql.value;

import java.util.Objects;

/**
 * A non-fatal finding returned beside a result, as Prometheus's {@code util/annotations}.
 *
 * @param severity warning or info
 * @param message the full message, for example {@code PromQL info: metric might not be a counter,
 *     name does not end in _total/_sum/_count/_bucket: "foo"}
 */
public record Annotation(Severity severity, String message) {
  /** The two kinds Prometheus distinguishes. */
  public enum Severity {
    WARNING,
    INFO
  }

  public Annotation {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(message, "message");
  }

  /** A warning; the message gets Prometheus's {@code PromQL warning: } prefix. */
  public static Annotation warning(String text) {
    return new Annotation(Severity.WARNING, "PromQL warning: " + text);
  }

  /** An info; the message gets Prometheus's {@code PromQL info: } prefix. */
  public static Annotation info(String text) {
    return new Annotation(Severity.INFO, "PromQL info: " + text);
  }

  @Override
  public String toString() {
    return message;
  }
}
