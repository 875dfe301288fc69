package dev.infermon.config.value;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * A password, token or credential from the configuration. {@link #toString()} is {@code <secret>},
 * so a secret never reaches a log line or a printed config by accident; code that needs the value
 * asks for it with {@link #reveal()}. Immutable and thread-safe.
 */
public final class Secret {
  /** What a secret prints as. */
  public static final String REDACTED = "<secret>";

  /** No secret configured. */
  public static final Secret NONE = new Secret("");

  private final String value;

  private Secret(String value) {
    this.value = value;
  }

  /** Wraps a value; the empty string means "not set". */
  public static Secret of(String value) {
    if (value == null) {
      throw new IllegalArgumentException("secret value must not be null");
    }
    return value.isEmpty() ? NONE : new Secret(value);
  }

  /** The secret itself. Never log or print it. */
  public String reveal() {
    return value;
  }

  public boolean isSet() {
    return !value.isEmpty();
  }

  /** Constant-time comparison with a candidate, for checking credentials. */
  public boolean matches(String candidate) {
    return MessageDigest.isEqual(
        value.getBytes(StandardCharsets.UTF_8), candidate.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Secret && ((Secret) o).value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value.isEmpty() ? "" : REDACTED;
  }
}
