package dev.infermon.web.api;

/** Prometheus's API error types ({@code errorType}) and the HTTP status each is sent with. */
public enum ErrorType {
  BAD_DATA("bad_data", 400),
  EXECUTION("execution", 422),
  CANCELED("canceled", 499),
  TIMEOUT("timeout", 503),
  INTERNAL("internal", 500),
  UNAVAILABLE("unavailable", 503),
  NOT_FOUND("not_found", 404);

  private final String apiName;
  private final int httpStatus;

  ErrorType(String apiName, int httpStatus) {
    this.apiName = apiName;
    this.httpStatus = httpStatus;
  }

  /** The value of the envelope's {@code errorType} field. */
  public String apiName() {
    return apiName;
  }

  /** The HTTP status Prometheus answers with. */
  public int httpStatus() {
    return httpStatus;
  }
}
