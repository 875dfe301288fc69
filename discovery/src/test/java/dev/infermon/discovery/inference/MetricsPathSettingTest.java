package dev.infermon.discovery.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.ConfigLoader;
import dev.infermon.config.app.InferenceConfig;
import dev.infermon.discovery.TargetGroup;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An inference target carries, among its discovered labels, the setting that chose its metrics path
 * ({@link InferenceTargets#METRICS_PATH_SETTING}), so that its 404 names the setting to change: a
 * Dynamo worker's path comes from {@code inference.metrics_paths_by_label} (by default every pod
 * with {@code nvidia.com/dynamo-component-type} at {@code /metrics}), whatever its backend's {@code
 * metrics_paths} says.
 */
class MetricsPathSettingTest {
  private static InferenceConfig config(String extra) throws Exception {
    return ConfigLoader.create()
        .parse("inference:\n  enabled: true\n  label_selector: app\n" + extra, "test.yml")
        .inference();
  }

  private static Pod pod(Map<String, String> labels) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("dynamo")
        .withName("worker-0")
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withNodeName("node-1")
        .addNewContainer()
        .withName("main")
        .withPorts(
            new ContainerPortBuilder().withName("system").withContainerPort(9090).build(),
            new ContainerPortBuilder().withName("http").withContainerPort(8000).build())
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .withPodIP("10.0.2.1")
        .endStatus()
        .build();
  }

  private static String setting(TargetGroup g) {
    return g.labels().get(InferenceTargets.METRICS_PATH_SETTING);
  }

  @Test
  void aDynamoWorkersPathIsMetricsPathsByLabels() throws Exception {
    InferenceConfig cfg = config("  metrics_paths: {trtllm: /prometheus/metrics}\n");
    TargetGroup g =
        InferenceTargets.inference(
            pod(
                Map.of(
                    "app", "x",
                    "inference_backend", "trtllm",
                    "nvidia.com/dynamo-component-type", "worker")),
            cfg);
    assertThat(g.targets()).isNotEmpty();
    assertThat(setting(g))
        .isEqualTo("inference.metrics_paths_by_label \"nvidia.com/dynamo-component-type\"");
    assertThat(
            InferenceTargets.explainError(
                "server returned HTTP status 404 Not Found",
                "http://10.0.2.1:9090/metrics",
                "trtllm",
                setting(g)))
        .isEqualTo(
            "server returned HTTP status 404 Not Found: no metrics at /metrics on this port;"
                + " set the path in inference.metrics_paths_by_label"
                + " \"nvidia.com/dynamo-component-type\", which chose it");
  }

  @Test
  void otherwiseTheBackendsPathOrTheDefault() throws Exception {
    InferenceConfig cfg = config("  metrics_paths: {nim: /v1/metrics}\n");
    assertThat(
            setting(
                InferenceTargets.inference(
                    pod(Map.of("app", "x", "inference_backend", "nim")), cfg)))
        .isEqualTo("inference.metrics_paths for backend \"nim\"");
    assertThat(
            setting(
                InferenceTargets.inference(
                    pod(Map.of("app", "x", "inference_backend", "vllm")), cfg)))
        .isEqualTo("inference.metrics_path");
    assertThat(
            InferenceTargets.explainError(
                "server returned HTTP status 404 Not Found",
                "http://10.0.2.1:9090/metrics",
                "vllm",
                "inference.metrics_path"))
        .isEqualTo(
            "server returned HTTP status 404 Not Found: no metrics at /metrics on this port;"
                + " set the path in inference.metrics_path, which chose it (or"
                + " inference.metrics_paths for backend \"vllm\")");
  }
}
