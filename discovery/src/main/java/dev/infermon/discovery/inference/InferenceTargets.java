package dev.infermon.discovery.inference;

import dev.infermon.config.app.InferenceConfig;
import dev.infermon.config.value.PromDuration;
import dev.infermon.discovery.DiscoveryLabels;
import dev.infermon.discovery.TargetGroup;
import dev.infermon.discovery.kubernetes.PodTargets;
import dev.infermon.model.labels.Labels;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns pods into infermon's inference targets, with the labels the LLM dashboards group by and no
 * relabeling rules needed:
 *
 * <ul>
 *   <li>{@code namespace}, {@code pod}, {@code node}, {@code container}: where it runs;
 *   <li>{@code workload_name}: the first of the workload labels the pod carries ({@code
 *       alibabacloud.com/inference-workload}, KServe's, Dynamo's, ... by default);
 *   <li>{@code backend}: the first of the backend labels the pod carries ({@code
 *       alibabacloud.com/inference-backend}, then {@code inference_backend}), else the backend
 *       {@code backend_by_label} names for a matcher it matches ({@code dynamo} for Dynamo's
 *       frontend); {@code dcgm} for GPU exporters;
 *   <li>{@code role}: the first of the role labels the pod carries (prefill / decode);
 *   <li>{@code job}: {@value #INFERENCE_JOB} for inference pods, {@value #DCGM_JOB} and {@value
 *       #AMDGPU_JOB} for GPU exporters, fixed so that {@code up{job="inference"}} finds every
 *       engine whatever its workload;
 *   <li>{@code instance}: the scraped {@code ip:port}.
 * </ul>
 *
 * <p>Only pods in phase {@code Running} with an IP are targets; an inference pod also needs a
 * container port with the configured name ({@code port_name}, the name {@code
 * metrics_ports_by_label} gives a matcher it matches, as Dynamo's {@code system} for its workers,
 * or the backend's {@code metrics_ports} name), unless its metrics port is a number, scraped
 * declared or not (Triton's 8002, NIM's 8000). Per-workload scrape intervals and timeouts travel as
 * {@code __scrape_interval__} / {@code __scrape_timeout__}, the metrics path (that of the first
 * {@code metrics_paths_by_label} matcher the pod matches, as Dynamo's system server's {@code
 * /metrics} for a worker labelled trtllm, else the backend's, when {@code metrics_paths} names one)
 * as {@code __metrics_path__}. Stateless and thread-safe.
 */
public final class InferenceTargets {
  /** The job of inference pods. */
  public static final String INFERENCE_JOB = "inference";

  /** The job of dcgm-exporter pods. */
  public static final String DCGM_JOB = "dcgm";

  /** The backend label value of dcgm-exporter targets. */
  public static final String DCGM_BACKEND = "dcgm";

  /** The job, and the backend label value, of AMD device-metrics-exporter pods. */
  public static final String AMDGPU_JOB = "amdgpu";

  private InferenceTargets() {}

  /** The inference target group of a pod (empty when the pod is not a target). */
  public static TargetGroup inference(Pod pod, InferenceConfig cfg) {
    String ns = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    TargetGroup none = TargetGroup.empty(PodTargets.source(ns, name));
    String ip = runningIp(pod);
    if (ip == null) {
      return none;
    }
    Map<String, String> podLabels = labels(pod);
    String workload = first(podLabels, cfg.workloadLabels());
    String backend = backend(podLabels, cfg);
    Duration interval = cfg.scrapeInterval();
    Duration timeout = cfg.scrapeTimeout();
    for (InferenceConfig.WorkloadOverride w : cfg.workloads()) {
      if (w.name().equals(workload) && (w.namespace().isEmpty() || w.namespace().equals(ns))) {
        interval = w.scrapeInterval();
        timeout = w.scrapeTimeout();
      }
    }
    Labels.Builder common = Labels.builder();
    common.set("namespace", ns);
    common.set("pod", name);
    common.set("node", nodeName(pod));
    common.set("workload_name", workload);
    common.set("backend", backend);
    common.set("role", first(podLabels, cfg.roleLabels()));
    common.set(DiscoveryLabels.JOB, INFERENCE_JOB);
    common.set(DiscoveryLabels.METRICS_PATH, cfg.metricsPathFor(podLabels, backend));
    common.set(METRICS_PATH_SETTING, cfg.metricsPathSetting(podLabels, backend));
    common.set(DiscoveryLabels.SCRAPE_INTERVAL, PromDuration.format(interval));
    common.set(DiscoveryLabels.SCRAPE_TIMEOUT, PromDuration.format(timeout));
    InferenceConfig.MetricsPort port = cfg.metricsPortFor(podLabels, backend);
    List<Labels> targets = new ArrayList<>();
    String firstContainer = "";
    for (Container c : containers(pod)) {
      firstContainer = firstContainer.isEmpty() ? c.getName() : firstContainer;
      for (ContainerPort p : ports(c)) {
        boolean match =
            port.name().isEmpty()
                ? p.getContainerPort() != null && p.getContainerPort() == port.number()
                : port.name().equals(p.getName());
        if (match && p.getContainerPort() != null) {
          targets.add(target(ip, p.getContainerPort(), c.getName()));
        }
      }
    }
    // a port number is scraped whether declared or not: a container need not declare what it serves
    if (targets.isEmpty() && port.number() > 0) {
      targets.add(target(ip, port.number(), firstContainer));
    }
    return new TargetGroup(none.source(), targets, common.build());
  }

  /**
   * The discovered (meta) label naming the setting that chose an inference target's metrics path
   * ({@link InferenceConfig#metricsPathSetting}): dropped with the other {@code __meta_*} labels
   * after relabeling, kept among the target's discovered labels for {@link #explainError}.
   */
  public static final String METRICS_PATH_SETTING =
      DiscoveryLabels.META_PREFIX + "inference_metrics_path_setting";

  /** The start of a scrape's error when the server answered 404 (Prometheus's wording). */
  static final String NOT_FOUND = "server returned HTTP status 404 Not Found";

  /**
   * A scrape error of an inference target as shown: a 404 says the metrics are not at the path
   * scraped (an engine's default path wrong for that pod, say a NIM release that serves {@code
   * /metrics} where the default is {@code /v1/metrics}), so the error names the path and the
   * setting that changes it; any other error is returned as is.
   *
   * @param error the scrape's error ({@code lastError})
   * @param scrapeUrl the URL scraped
   * @param backend the target's {@code backend} label, empty when it has none
   */
  public static String explainError(String error, String scrapeUrl, String backend) {
    return explainError(error, scrapeUrl, backend, "");
  }

  /**
   * {@link #explainError(String, String, String)} naming {@code setting}, the setting that chose
   * the path ({@link #METRICS_PATH_SETTING}; empty when unknown, a target discovered before it was
   * recorded): a Dynamo worker's path comes from {@code inference.metrics_paths_by_label}, which
   * wins over its backend's {@code metrics_paths}, so that is the one to change. The default {@code
   * metrics_path} names the backend's setting too, which would set that pod's path alone.
   */
  public static String explainError(
      String error, String scrapeUrl, String backend, String setting) {
    if (error == null || !error.startsWith(NOT_FOUND)) {
      return error;
    }
    if (setting != null && !setting.isEmpty()) {
      String or =
          setting.equals("inference.metrics_path") && backend != null && !backend.isEmpty()
              ? " (or inference.metrics_paths for backend \"" + backend + "\")"
              : "";
      return error
          + ": no metrics at "
          + path(scrapeUrl)
          + " on this port; set the path in "
          + setting
          + ", which chose it"
          + or;
    }
    String guess =
        backend == null || backend.isEmpty()
            ? "inference.metrics_path (or inference.metrics_paths, by the pod's backend label)"
            : "inference.metrics_paths for backend \"" + backend + "\"";
    return error + ": no metrics at " + path(scrapeUrl) + " on this port; set the path in " + guess;
  }

  private static String path(String scrapeUrl) {
    try {
      java.net.URI u = java.net.URI.create(scrapeUrl);
      return u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
    } catch (IllegalArgumentException e) {
      return scrapeUrl;
    }
  }

  /** The dcgm-exporter target group of a pod ({@link #gpuExporter}). */
  public static TargetGroup dcgm(Pod pod, InferenceConfig.GpuExporterConfig cfg) {
    return gpuExporter(pod, cfg, DCGM_JOB);
  }

  /** The AMD device-metrics-exporter target group of a pod ({@link #gpuExporter}). */
  public static TargetGroup amdgpu(Pod pod, InferenceConfig.GpuExporterConfig cfg) {
    return gpuExporter(pod, cfg, AMDGPU_JOB);
  }

  /**
   * A GPU exporter's target group, its {@code job} and {@code backend} both {@code name}: the port
   * named {@code port_name} when set, else the configured port number (declared or not: exporter
   * daemonsets often use host networking, and AMD's Helm chart leaves its port unnamed). The
   * exporter's own {@code pod}/{@code namespace} labels, the inference pod a GPU is attributed to,
   * become {@code exported_pod}/{@code exported_namespace} beside these (honor_labels false).
   */
  static TargetGroup gpuExporter(Pod pod, InferenceConfig.GpuExporterConfig cfg, String name) {
    String ns = pod.getMetadata().getNamespace();
    String podName = pod.getMetadata().getName();
    TargetGroup none = TargetGroup.empty(PodTargets.source(ns, podName));
    String ip = runningIp(pod);
    if (ip == null) {
      return none;
    }
    Labels.Builder common = Labels.builder();
    common.set("namespace", ns);
    common.set("pod", podName);
    common.set("node", nodeName(pod));
    common.set("backend", name);
    common.set(DiscoveryLabels.JOB, name);
    common.set(DiscoveryLabels.METRICS_PATH, cfg.metricsPath());
    List<Labels> targets = new ArrayList<>();
    String fallbackContainer = "";
    for (Container c : containers(pod)) {
      if (fallbackContainer.isEmpty()) {
        fallbackContainer = c.getName();
      }
      for (ContainerPort p : ports(c)) {
        boolean match =
            cfg.portName().isEmpty()
                ? p.getContainerPort() != null && p.getContainerPort() == cfg.port()
                : cfg.portName().equals(p.getName());
        if (match && p.getContainerPort() != null) {
          targets.add(target(ip, p.getContainerPort(), c.getName()));
        }
      }
    }
    if (targets.isEmpty() && cfg.portName().isEmpty()) {
      targets.add(target(ip, cfg.port(), fallbackContainer));
    }
    return new TargetGroup(none.source(), targets, common.build());
  }

  private static Labels target(String ip, int port, String container) {
    String address = joinHostPort(ip, Integer.toString(port));
    return Labels.builder()
        .set(DiscoveryLabels.ADDRESS, address)
        .set(DiscoveryLabels.INSTANCE, address)
        .set("container", container == null ? "" : container)
        .build();
  }

  private static String joinHostPort(String host, String port) {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }

  private static String runningIp(Pod pod) {
    if (pod.getStatus() == null || !"Running".equals(pod.getStatus().getPhase())) {
      return null;
    }
    String ip = pod.getStatus().getPodIP();
    return ip == null || ip.isEmpty() ? null : ip;
  }

  /**
   * The first backend label's value; else the backend named for the first matcher the pod matches
   * (operators such as Dynamo's label a pod by what it is, not by a backend value: its frontend is
   * {@code dynamo}, its workers' engine is not in their labels).
   */
  private static String backend(Map<String, String> podLabels, InferenceConfig cfg) {
    String b = first(podLabels, cfg.backendLabels());
    if (!b.isEmpty()) {
      return b;
    }
    for (Map.Entry<String, String> e : cfg.backendByLabel().entrySet()) {
      if (InferenceConfig.matches(podLabels, e.getKey())) {
        return e.getValue();
      }
    }
    return "";
  }

  private static String first(Map<String, String> podLabels, List<String> keys) {
    for (String k : keys) {
      String v = podLabels.get(k);
      if (v != null && !v.isEmpty()) {
        return v;
      }
    }
    return "";
  }

  private static Map<String, String> labels(Pod pod) {
    Map<String, String> l = pod.getMetadata().getLabels();
    return l == null ? Map.of() : l;
  }

  private static String nodeName(Pod pod) {
    return pod.getSpec() == null || pod.getSpec().getNodeName() == null
        ? ""
        : pod.getSpec().getNodeName();
  }

  private static List<Container> containers(Pod pod) {
    return pod.getSpec() == null || pod.getSpec().getContainers() == null
        ? List.of()
        : pod.getSpec().getContainers();
  }

  private static List<ContainerPort> ports(Container c) {
    return c.getPorts() == null ? List.of() : c.getPorts();
  }
}
