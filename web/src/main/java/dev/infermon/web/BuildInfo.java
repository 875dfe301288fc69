package dev.infermon.web;

import java.util.Objects;

/**
 * What {@code /api/v1/status/buildinfo} reports, field for field Prometheus's {@code
 * PrometheusVersion}. {@link #version()} is the Prometheus API level infermon implements, because
 * Grafana reads it to decide which API calls it may make; infermon's own version is in {@link
 * #revision()} (see docs/http-api.md).
 */
public record BuildInfo(
    String version,
    String revision,
    String branch,
    String buildUser,
    String buildDate,
    String goVersion) {
  /** The Prometheus version whose HTTP API infermon follows. */
  public static final String PROMETHEUS_API_VERSION = "2.42.0";

  public static final BuildInfo UNKNOWN =
      new BuildInfo(PROMETHEUS_API_VERSION, "infermon unknown", "", "", "", "");

  public BuildInfo {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(branch, "branch");
    Objects.requireNonNull(buildUser, "buildUser");
    Objects.requireNonNull(buildDate, "buildDate");
    Objects.requireNonNull(goVersion, "goVersion");
  }

  /** Build info for infermon {@code infermonVersion} running on this JVM. */
  public static BuildInfo forInfermon(String infermonVersion) {
    return new BuildInfo(
        PROMETHEUS_API_VERSION,
        "infermon " + infermonVersion,
        "",
        "infermon",
        "",
        "java" + System.getProperty("java.version"));
  }
}
