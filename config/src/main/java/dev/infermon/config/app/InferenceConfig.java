package dev.infermon.config.app;

import java.time.Duration;
import java.util.List;

/**
 * The {@code inference} section: discovery of LLM inference pods in Kubernetes (and, under {@code
 * dcgm}, of the GPU exporters beside them). Pods match {@code label_selector}; their port named
 * {@code port_name} is scraped at {@code metrics_path}. Workload, backend and role come from pod
 * labels, trying each listed label in order. Intervals are resolved against {@code global}.
 */
public record InferenceConfig(
    boolean enabled,
    String kubeconfigFile,
    List<String> namespaces,
    String labelSelector,
    String portName,
    String metricsPath,
    java.time.Duration scrapeInterval,
    java.time.Duration scrapeTimeout,
    String workloadLabel,
    List<String> backendLabels,
    List<String> roleLabels,
    List<WorkloadOverride> workloads,
    DcgmConfig dcgm) {
  public static final String DEFAULT_WORKLOAD_LABEL = "alibabacloud.com/inference-workload";

  /** Pods that carry the workload label, whatever its value. */
  public static final String DEFAULT_LABEL_SELECTOR = DEFAULT_WORKLOAD_LABEL;

  public static final String DEFAULT_PORT_NAME = "http";
  public static final String DEFAULT_METRICS_PATH = "/metrics";
  public static final List<String> DEFAULT_BACKEND_LABELS =
      List.of("alibabacloud.com/inference-backend", "inference_backend");
  public static final List<String> DEFAULT_ROLE_LABELS =
      List.of(
          "rolebasedgroup.workloads.x-k8s.io/role",
          "rbg.workloads.x-k8s.io/role-name",
          "llm-d.ai/role");

  /** Scrape settings for the pods of one workload, overriding the section's. */
  public record WorkloadOverride(
      String name, String namespace, Duration scrapeInterval, Duration scrapeTimeout) {}

  /** GPU metrics from dcgm-exporter pods. */
  public record DcgmConfig(
      boolean enabled,
      String labelSelector,
      int port,
      String portName,
      List<String> namespaces,
      String metricsPath) {
    public static final String DEFAULT_LABEL_SELECTOR = "app.kubernetes.io/name=dcgm-exporter";
    public static final int DEFAULT_PORT = 9400;
    public static final DcgmConfig DEFAULT =
        new DcgmConfig(false, DEFAULT_LABEL_SELECTOR, DEFAULT_PORT, "", List.of(), "/metrics");
  }
}
