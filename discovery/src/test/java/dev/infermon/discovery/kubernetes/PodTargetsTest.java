package dev.infermon.discovery.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.discovery.TargetGroup;
import dev.infermon.model.labels.Labels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Prometheus's role=pod labels, name for name (discovery/kubernetes/pod.go). */
class PodTargetsTest {
  @Test
  void runningPodHasPrometheusMetaLabels() {
    Pod pod =
        Pods.running(
            "llm",
            "qwen-0",
            "10.1.2.3",
            "http",
            8000,
            Map.of("alibabacloud.com/inference-workload", "qwen", "app", "vllm"));
    TargetGroup g = PodTargets.group(pod);

    assertThat(g.source()).isEqualTo("pod/llm/qwen-0");
    assertThat(g.labels())
        .isEqualTo(
            Labels.builder()
                .set("__meta_kubernetes_namespace", "llm")
                .set("__meta_kubernetes_pod_name", "qwen-0")
                .set("__meta_kubernetes_pod_ip", "10.1.2.3")
                .set("__meta_kubernetes_pod_ready", "true")
                .set("__meta_kubernetes_pod_phase", "Running")
                .set("__meta_kubernetes_pod_node_name", "node-1")
                .set("__meta_kubernetes_pod_host_ip", "192.0.2.1")
                .set("__meta_kubernetes_pod_uid", "uid-qwen-0")
                .set("__meta_kubernetes_pod_controller_kind", "ReplicaSet")
                .set("__meta_kubernetes_pod_controller_name", "qwen-0-rs")
                .set("__meta_kubernetes_pod_label_alibabacloud_com_inference_workload", "qwen")
                .set(
                    "__meta_kubernetes_pod_labelpresent_alibabacloud_com_inference_workload",
                    "true")
                .set("__meta_kubernetes_pod_label_app", "vllm")
                .set("__meta_kubernetes_pod_labelpresent_app", "true")
                .set("__meta_kubernetes_pod_annotation_prometheus_io_scrape", "true")
                .set("__meta_kubernetes_pod_annotationpresent_prometheus_io_scrape", "true")
                .build());
    assertThat(g.targets())
        .containsExactly(
            Labels.builder()
                .set("__address__", "10.1.2.3:8000")
                .set("__meta_kubernetes_pod_container_name", "engine")
                .set("__meta_kubernetes_pod_container_id", "containerd://abc")
                .set("__meta_kubernetes_pod_container_image", "vllm/vllm-openai:v0.11.0")
                .set("__meta_kubernetes_pod_container_port_name", "http")
                .set("__meta_kubernetes_pod_container_port_number", "8000")
                .set("__meta_kubernetes_pod_container_port_protocol", "TCP")
                .set("__meta_kubernetes_pod_container_init", "false")
                .build());
  }

  @Test
  void podWithoutIpIsAnEmptyGroup() {
    Pod pod =
        new PodBuilder(Pods.running("ns", "p", "10.0.0.1", "http", 80, Map.of()))
            .editStatus()
            .withPodIP(null)
            .withPhase("Pending")
            .endStatus()
            .build();
    assertThat(PodTargets.group(pod).isEmpty()).isTrue();
  }

  @Test
  void ipv6AddressesAreBracketed() {
    assertThat(PodTargets.joinHostPort("fd00::1", "8000")).isEqualTo("[fd00::1]:8000");
    assertThat(PodTargets.joinHostPort("10.0.0.1", "8000")).isEqualTo("10.0.0.1:8000");
  }
}
