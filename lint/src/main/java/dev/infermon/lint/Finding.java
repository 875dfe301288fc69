package dev.infermon.lint;

/**
 * One problem lint found. Immutable.
 *
 * @param check which check found it
 * @param severity how bad it is (usually the check's default)
 * @param location where it is
 * @param message what is wrong, naming the metric, label or value
 * @param fix what to do instead (a replacement name, the flag to set, the nearest bucket bounds, a
 *     rewritten expression); empty when lint has no concrete fix
 * @param subject the metric name, label or value the finding is about; empty when none
 */
public record Finding(
    CheckId check,
    Severity severity,
    Location location,
    String message,
    String fix,
    String subject) {
  public Finding {
    if (check == null || severity == null || location == null) {
      throw new IllegalArgumentException("check, severity and location are required");
    }
    if (message == null || message.isBlank()) {
      throw new IllegalArgumentException("a finding needs a message");
    }
    fix = fix == null ? "" : fix;
    subject = subject == null ? "" : subject;
  }

  /** A finding with its check's default severity. */
  public static Finding of(
      CheckId check, Location location, String message, String fix, String subject) {
    return new Finding(check, check.severity(), location, message, fix, subject);
  }

  @Override
  public String toString() {
    return location.position()
        + ": "
        + severity.label()
        + ": "
        + message
        + " ["
        + check.id()
        + "]"
        + (fix.isEmpty() ? "" : " fix: " + fix);
  }
}
