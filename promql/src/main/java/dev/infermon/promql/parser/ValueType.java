package dev.infermon.promql.parser;

/** The four PromQL value types, named as Prometheus names them in errors and in the API. */
public enum ValueType {
  SCALAR("scalar"),
  VECTOR("vector"),
  MATRIX("matrix"),
  STRING("string");

  private final String apiName;

  ValueType(String apiName) {
    this.apiName = apiName;
  }

  /** The name in the HTTP API's {@code resultType}. */
  public String apiName() {
    return apiName;
  }

  /** The name used in parse errors ("instant vector", "range vector", ...). */
  public String documentedName() {
    switch (this) {
      case VECTOR:
        return "instant vector";
      case MATRIX:
        return "range vector";
      default:
        return apiName;
    }
  }
}
