package dev.infermon.web.api;

import java.util.Objects;

/**
 * An API call that ends in Prometheus's error envelope. The message is the envelope's {@code error}
 * text, worded as Prometheus words it.
 */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorType type;

  public ApiException(ErrorType type, String message) {
    super(message);
    this.type = Objects.requireNonNull(type, "type");
  }

  /** {@code invalid parameter "name": detail}, a {@code bad_data} error. */
  public static ApiException invalidParam(String name, String detail) {
    return new ApiException(ErrorType.BAD_DATA, "invalid parameter \"" + name + "\": " + detail);
  }

  public ErrorType type() {
    return type;
  }
}
