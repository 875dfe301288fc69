package dev.infermon.server.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.scrape.DroppedTarget;
import dev.infermon.scrape.TargetHealth;
import dev.infermon.scrape.TargetRetriever;
import dev.infermon.scrape.TargetStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The targets the API and the Targets page show: an inference target that answered 404 says which
 * path was scraped and which setting changes it; a target of any other pool keeps Prometheus's
 * error as scraped.
 */
class TargetsAdapterTest {
  private static final String NOT_FOUND = "server returned HTTP status 404 Not Found";

  private static TargetStatus target(String pool, String url, String backend) {
    return target(pool, url, backend, Labels.of("job", pool));
  }

  private static TargetStatus target(String pool, String url, String backend, Labels discovered) {
    return new TargetStatus(
        discovered,
        Labels.of("job", pool, "backend", backend),
        pool,
        url,
        url,
        NOT_FOUND,
        "",
        Instant.parse("2026-01-01T00:00:00Z"),
        Duration.ofMillis(3),
        TargetHealth.DOWN,
        Duration.ofSeconds(15),
        Duration.ofSeconds(10));
  }

  @Test
  void anInferenceTargetsNotFoundNamesThePathAndTheSetting() {
    TargetStatus nim = target("inference", "http://10.0.0.7:8000/v1/metrics", "nim");
    TargetStatus other = target("vllm-static", "http://10.0.0.8:8000/metrics", "vllm");
    TargetRetriever scrape =
        new TargetRetriever() {
          @Override
          public Map<String, List<TargetStatus>> activeTargets() {
            return Map.of("inference", List.of(nim), "vllm-static", List.of(other));
          }

          @Override
          public Map<String, List<DroppedTarget>> droppedTargets() {
            return Map.of();
          }
        };
    var active = new TargetsAdapter(() -> scrape).activeTargets();
    assertThat(active.get("inference").get(0).lastError())
        .isEqualTo(
            NOT_FOUND
                + ": no metrics at /v1/metrics on this port; set the path in"
                + " inference.metrics_paths for backend \"nim\"");
    assertThat(active.get("vllm-static").get(0).lastError()).isEqualTo(NOT_FOUND);
  }

  /**
   * A Dynamo worker's path is chosen by inference.metrics_paths_by_label (discovery records which
   * setting chose it among the discovered labels): its 404 names that setting, not the backend's.
   */
  @Test
  void aDynamoWorkersNotFoundNamesMetricsPathsByLabel() {
    TargetStatus worker =
        target(
            "inference",
            "http://10.0.2.1:9090/metrics",
            "trtllm",
            Labels.of(
                "job",
                "inference",
                "__meta_inference_metrics_path_setting",
                "inference.metrics_paths_by_label \"nvidia.com/dynamo-component-type\""));
    TargetRetriever scrape =
        new TargetRetriever() {
          @Override
          public Map<String, List<TargetStatus>> activeTargets() {
            return Map.of("inference", List.of(worker));
          }

          @Override
          public Map<String, List<DroppedTarget>> droppedTargets() {
            return Map.of();
          }
        };
    assertThat(new TargetsAdapter(() -> scrape).activeTargets().get("inference").get(0).lastError())
        .isEqualTo(
            NOT_FOUND
                + ": no metrics at /metrics on this port; set the path in"
                + " inference.metrics_paths_by_label \"nvidia.com/dynamo-component-type\", which"
                + " chose it");
  }
}
