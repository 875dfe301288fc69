package dev.infermon.scrape;

/** A target's health after its last scrape, as Prometheus reports it in {@code /api/v1/targets}. */
public enum TargetHealth {
  /** The last scrape succeeded. */
  UP("up"),
  /** The last scrape failed. */
  DOWN("down"),
  /** Not scraped yet. */
  UNKNOWN("unknown");

  private final String apiName;

  TargetHealth(String apiName) {
    this.apiName = apiName;
  }

  /** The value of the API's {@code health} field. */
  public String apiName() {
    return apiName;
  }
}
