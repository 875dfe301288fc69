package dev.infermon.discovery.inference;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * An inference target's 404 names the path scraped and the setting that changes it, so that a pod
 * whose engine serves its metrics elsewhere than the default (a NIM release serving {@code
 * /metrics}, not {@code /v1/metrics}) says what to set; other errors are Prometheus's as scraped.
 */
class NotFoundErrorTest {
  @Test
  void a404NamesThePathAndTheBackendsSetting() {
    assertThat(
            InferenceTargets.explainError(
                "server returned HTTP status 404 Not Found",
                "http://10.0.0.7:8000/v1/metrics",
                "nim"))
        .isEqualTo(
            "server returned HTTP status 404 Not Found: no metrics at /v1/metrics on this port;"
                + " set the path in inference.metrics_paths for backend \"nim\"");
  }

  @Test
  void a404OfAPodWithNoBackendNamesMetricsPath() {
    assertThat(
            InferenceTargets.explainError(
                "server returned HTTP status 404 Not Found", "http://10.0.0.7:9090/metrics", ""))
        .isEqualTo(
            "server returned HTTP status 404 Not Found: no metrics at /metrics on this port; set"
                + " the path in inference.metrics_path (or inference.metrics_paths, by the pod's"
                + " backend label)");
  }

  @Test
  void otherErrorsAreAsScraped() {
    assertThat(
            InferenceTargets.explainError(
                "server returned HTTP status 503 Service Unavailable",
                "http://10.0.0.7:8000/v1/metrics",
                "nim"))
        .isEqualTo("server returned HTTP status 503 Service Unavailable");
    assertThat(InferenceTargets.explainError("", "http://10.0.0.7:8000/metrics", "vllm")).isEmpty();
  }
}
