package dev.infermon.config.app;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code inference} section: discovery of LLM inference pods in Kubernetes (and, under {@code
 * dcgm} and {@code amdgpu}, of the GPU exporters beside them). Pods match {@code label_selector};
 * their port named {@code port_name} is scraped at {@code metrics_path}, or at the port {@code
 * metrics_ports_by_label} names for the first of its matchers the pod matches, else the port {@code
 * metrics_ports} names for the pod's backend, and at the path {@code metrics_paths} names for it.
 * Workload, backend and role come from pod labels, trying each listed label in order; a pod with no
 * backend label takes the backend {@code backend_by_label} gives the first of its matchers the pod
 * matches. A matcher is a label key (the pod carries the label) or {@code key=value} (the label has
 * that value). Intervals are resolved against {@code global}.
 *
 * <p>The default label lists name the operators' own keys, so that pods of KServe, llm-d and NVIDIA
 * Dynamo are labelled right once {@code label_selector} selects them (the default selector stays
 * ACK's): KServe {@code pkg/constants/constants.go} and LLMInferenceService's workload selector
 * ({@code app.kubernetes.io/name} with {@code app.kubernetes.io/part-of=llminferenceservice}),
 * llm-d's {@code llm-d.ai/role}, Dynamo's {@code deploy/operator/internal/consts/consts.go}.
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
    List<String> workloadLabels,
    List<String> backendLabels,
    Map<String, String> backendByLabel,
    List<String> roleLabels,
    Map<String, String> metricsPaths,
    Map<String, MetricsPort> metricsPorts,
    Map<String, MetricsPort> metricsPortsByLabel,
    Map<String, String> metricsPathsByLabel,
    List<WorkloadOverride> workloads,
    GpuExporterConfig dcgm,
    GpuExporterConfig amdgpu) {
  public static final String DEFAULT_WORKLOAD_LABEL = "alibabacloud.com/inference-workload";

  /**
   * ACK's workload, then KServe InferenceService's ({@code InferenceServicePodLabelKey}), Dynamo's
   * graph deployment ({@code KubeLabelDynamoGraphDeploymentName}), and last the name KServe's
   * LLMInferenceService stamps on its workload pods.
   */
  public static final List<String> DEFAULT_WORKLOAD_LABELS =
      List.of(
          DEFAULT_WORKLOAD_LABEL,
          "serving.kserve.io/inferenceservice",
          "nvidia.com/dynamo-graph-deployment-name",
          "app.kubernetes.io/name");

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
          "llm-d.ai/role",
          // Dynamo: a v1alpha1-era worker is component type "worker" with the role in the
          // sub-component type; a v1beta1 one has "prefill" / "decode" as its component type, and
          // its frontend "frontend" (the router in front of the workers).
          "nvidia.com/dynamo-sub-component-type",
          "nvidia.com/dynamo-component-type");

  /** The Dynamo operator's component type label ({@code KubeLabelDynamoComponentType}). */
  public static final String DYNAMO_COMPONENT_TYPE = "nvidia.com/dynamo-component-type";

  /**
   * Dynamo's frontend ({@code ComponentTypeFrontend}) is the catalog engine {@code dynamo}; its
   * workers are not: a worker re-exports its engine's families (vLLM, SGLang, TensorRT-LLM) and is
   * detected from its page. The operator stamps no label naming a worker's engine (the backend
   * framework is the DynamoComponentDeployment's {@code spec.backendFramework}, not a pod label:
   * ai-dynamo/dynamo deploy/operator/internal/consts/consts.go @ 0367e404), so a worker's backend
   * comes from a backend label of the user's own, else none.
   */
  public static final Map<String, String> DEFAULT_BACKEND_BY_LABEL =
      Map.of(DYNAMO_COMPONENT_TYPE + "=frontend", "dynamo");

  /**
   * trtllm-serve serves its metrics at {@code /prometheus/metrics} (TensorRT-LLM#12545, #12636;
   * {@code tensorrt_llm/metrics/collector.py}). NVIDIA NIM for LLMs serves them at {@code
   * /v1/metrics} on its HTTP port 8000 ("By default, these metrics are available at
   * http://localhost:8000/v1/metrics": docs.nvidia.com/nim/large-language-models/latest/
   * observability.html); its 24.05 release served {@code /metrics}
   * (docs.nvidia.com/nim/large-language-models/24.05.rc15/observability.html), which a user of it
   * sets in {@code metrics_paths}.
   */
  public static final Map<String, String> DEFAULT_METRICS_PATHS =
      Map.of("trtllm", "/prometheus/metrics", "nim", "/v1/metrics");

  /**
   * Triton Inference Server serves {@code /metrics} on port 8002, its HTTP port 8000 serving
   * inference ("By default, these metrics are available at http://localhost:8002/metrics ... The
   * --metrics-port option can be used to select a different port": triton-inference-server/server
   * docs/user_guide/metrics.md, r24.04).
   */
  public static final Map<String, MetricsPort> DEFAULT_METRICS_PORTS =
      Map.of("triton", MetricsPort.number(8002), "nim", MetricsPort.number(8000));

  /**
   * The Dynamo operator's ports (ai-dynamo/dynamo deploy/operator/internal/consts/consts.go @
   * 0367e404): the frontend's container port {@code http} ({@code DynamoContainerPortName}, 8000),
   * serving its {@code /metrics} ({@code component_frontend.go}); every worker's {@code system}
   * ({@code DynamoSystemPortName}, {@code DynamoSystemPort} 9090), the system server the operator
   * turns on with {@code DYN_SYSTEM_ENABLED=true} and {@code DYN_SYSTEM_PORT=9090} and whose {@code
   * /metrics} carries the worker's engine families ({@code component_worker.go}, for component
   * types worker, prefill and decode: {@code component_common.go}). The planner and the endpoint
   * picker serve their own metrics on the port {@code metrics} ({@code DynamoMetricsPortName}): the
   * planner's Prometheus server on 9085 ({@code DynamoPlannerMetricsPort}, {@code
   * PLANNER_PROMETHEUS_PORT}; its {@code system} port is the runtime's status server), the EPP's on
   * 9090, beside its gRPC ports and with no {@code system} port (component_planner.go @ 015d780b,
   * component_epp.go @ 0535863d, consts.go @ d195d280). The named types first: the first matcher a
   * pod matches wins.
   */
  public static final Map<String, MetricsPort> DEFAULT_METRICS_PORTS_BY_LABEL =
      orderedPorts(
          DYNAMO_COMPONENT_TYPE + "=frontend",
          MetricsPort.named("http"),
          DYNAMO_COMPONENT_TYPE + "=planner",
          MetricsPort.named("metrics"),
          DYNAMO_COMPONENT_TYPE + "=epp",
          MetricsPort.named("metrics"),
          DYNAMO_COMPONENT_TYPE,
          MetricsPort.named("system"));

  /**
   * Every Dynamo component but the frontend serves {@code /metrics} from its system server (the
   * runtime's {@code system_status_server.rs} routes {@code /metrics}), its engine's families
   * re-exported there whatever the engine: a worker labelled {@code trtllm} is not trtllm-serve,
   * which serves {@code /prometheus/metrics}. The frontend serves {@code /metrics} too.
   */
  public static final Map<String, String> DEFAULT_METRICS_PATHS_BY_LABEL =
      Map.of(DYNAMO_COMPONENT_TYPE, "/metrics");

  /** Matcher, port, matcher, port, ... in the order given. */
  private static Map<String, MetricsPort> orderedPorts(Object... matcherThenPort) {
    Map<String, MetricsPort> m = new LinkedHashMap<>();
    for (int i = 0; i < matcherThenPort.length; i += 2) {
      m.put((String) matcherThenPort[i], (MetricsPort) matcherThenPort[i + 1]);
    }
    return Collections.unmodifiableMap(m);
  }

  public InferenceConfig {
    workloadLabels = List.copyOf(workloadLabels);
    backendLabels = List.copyOf(backendLabels);
    // in the order given: the first key a pod carries wins
    backendByLabel = Collections.unmodifiableMap(new LinkedHashMap<>(backendByLabel));
    roleLabels = List.copyOf(roleLabels);
    metricsPaths = Map.copyOf(metricsPaths);
    metricsPorts = Map.copyOf(metricsPorts);
    // in the order given: the first matcher a pod matches wins
    metricsPortsByLabel = Collections.unmodifiableMap(new LinkedHashMap<>(metricsPortsByLabel));
    metricsPathsByLabel = Collections.unmodifiableMap(new LinkedHashMap<>(metricsPathsByLabel));
  }

  /**
   * Whether pod labels {@code podLabels} match {@code matcher}: a label key the pod carries, or
   * {@code key=value} with the pod's label of that value.
   */
  public static boolean matches(Map<String, String> podLabels, String matcher) {
    int eq = matcher.indexOf('=');
    if (eq < 0) {
      return podLabels.containsKey(matcher);
    }
    return matcher.substring(eq + 1).equals(podLabels.get(matcher.substring(0, eq)));
  }

  /** The metrics path of a pod whose backend is {@code backend} (empty when unknown). */
  public String metricsPathFor(String backend) {
    return metricsPaths.getOrDefault(backend, metricsPath);
  }

  /**
   * The metrics path of a pod with labels {@code podLabels} and backend {@code backend}: the path
   * of the first {@code metrics_paths_by_label} matcher it matches (the server its operator runs,
   * whatever the engine), else {@link #metricsPathFor(String) its backend's}.
   */
  public String metricsPathFor(Map<String, String> podLabels, String backend) {
    for (Map.Entry<String, String> e : metricsPathsByLabel.entrySet()) {
      if (matches(podLabels, e.getKey())) {
        return e.getValue();
      }
    }
    return metricsPathFor(backend);
  }

  /**
   * The setting that chooses {@link #metricsPathFor(Map, String)} for such a pod, as a user would
   * look it up: {@code inference.metrics_paths_by_label "<matcher>"}, {@code
   * inference.metrics_paths for backend "<backend>"}, else {@code inference.metrics_path}.
   */
  public String metricsPathSetting(Map<String, String> podLabels, String backend) {
    for (String matcher : metricsPathsByLabel.keySet()) {
      if (matches(podLabels, matcher)) {
        return "inference.metrics_paths_by_label \"" + matcher + "\"";
      }
    }
    if (metricsPaths.containsKey(backend)) {
      return "inference.metrics_paths for backend \"" + backend + "\"";
    }
    return "inference.metrics_path";
  }

  /**
   * The metrics port of a pod whose backend is {@code backend}: its own, else {@code port_name}.
   */
  public MetricsPort metricsPortFor(String backend) {
    return metricsPorts.getOrDefault(backend, MetricsPort.named(portName));
  }

  /**
   * The metrics port of a pod with labels {@code podLabels} and backend {@code backend}: the port
   * of the first {@code metrics_ports_by_label} matcher it matches (how its operator laid it out),
   * else {@link #metricsPortFor(String) its backend's}.
   */
  public MetricsPort metricsPortFor(Map<String, String> podLabels, String backend) {
    for (Map.Entry<String, MetricsPort> e : metricsPortsByLabel.entrySet()) {
      if (matches(podLabels, e.getKey())) {
        return e.getValue();
      }
    }
    return metricsPortFor(backend);
  }

  /**
   * Where a pod's metrics are served: the container port of a name, or a port number, scraped
   * whether a container declares it or not (a port need not be declared to be served).
   *
   * <p>A value, not a record: it is configured and printed as one scalar, the name or the number
   * ({@link #toString}), which the configuration printer writes as it writes any scalar.
   */
  public static final class MetricsPort {
    private final String name;
    private final int number;

    private MetricsPort(String name, int number) {
      if (name == null || name.isEmpty() == (number == 0)) {
        throw new IllegalArgumentException(
            "a metrics port is a name or a number, got name "
                + (name == null ? "null" : "\"" + name + "\"")
                + " and number "
                + number);
      }
      if (number < 0 || number > 65535) {
        throw new IllegalArgumentException("port " + number + " is not in 1-65535");
      }
      this.name = name;
      this.number = number;
    }

    /** The container port's name, empty for a number. */
    public String name() {
      return name;
    }

    /** The port, 0 for a name. */
    public int number() {
      return number;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof MetricsPort p && p.name.equals(name) && p.number == number;
    }

    @Override
    public int hashCode() {
      return name.hashCode() * 31 + number;
    }

    /** The container port named {@code name}. */
    public static MetricsPort named(String name) {
      return new MetricsPort(name, 0);
    }

    /** Port {@code number}. */
    public static MetricsPort number(int number) {
      if (number == 0) {
        throw new IllegalArgumentException("port 0 is not in 1-65535");
      }
      return new MetricsPort("", number);
    }

    /**
     * A port as configured: digits are a number (1-65535), anything else a container port name
     * (Kubernetes' IANA_SVC_NAME: at most 15 lowercase letters, digits and inner single hyphens, at
     * least one letter).
     *
     * @throws IllegalArgumentException naming the value when it is neither
     */
    public static MetricsPort parse(String s) {
      if (s.matches("[0-9]+")) {
        int n = s.length() > 5 ? -1 : Integer.parseInt(s);
        if (n < 1 || n > 65535) {
          throw new IllegalArgumentException("port \"" + s + "\" is not in 1-65535");
        }
        return number(n);
      }
      if (s.length() > 15
          || !s.matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?")
          || s.contains("--")
          || !s.matches(".*[a-z].*")) {
        throw new IllegalArgumentException(
            "\""
                + s
                + "\" is neither a port number nor a container port name (at most 15 lowercase"
                + " letters, digits and single inner hyphens, with a letter)");
      }
      return named(s);
    }

    @Override
    public String toString() {
      return name.isEmpty() ? Integer.toString(number) : name;
    }
  }

  /** Scrape settings for the pods of one workload, overriding the section's. */
  public record WorkloadOverride(
      String name, String namespace, Duration scrapeInterval, Duration scrapeTimeout) {}

  /**
   * A node GPU exporter's pods: NVIDIA's dcgm-exporter ({@code dcgm}) or AMD's
   * device-metrics-exporter ({@code amdgpu}). Pods match {@code label_selector}; the port named
   * {@code port_name} is scraped when set, else port {@code port}.
   */
  public record GpuExporterConfig(
      boolean enabled,
      String labelSelector,
      int port,
      String portName,
      List<String> namespaces,
      String metricsPath) {
    public static final String DCGM_LABEL_SELECTOR = "app.kubernetes.io/name=dcgm-exporter";
    public static final int DCGM_PORT = 9400;

    /** dcgm-exporter's Helm chart: its pod label, port 9400. */
    public static final GpuExporterConfig DCGM_DEFAULT =
        new GpuExporterConfig(false, DCGM_LABEL_SELECTOR, DCGM_PORT, "", List.of(), "/metrics");

    /**
     * The pod label both installers of AMD's exporter set: its Helm chart's DaemonSet pod template
     * (ROCm/device-metrics-exporter helm-charts/templates/daemonsets.yaml @ afd0fe8) and the AMD
     * GPU Operator's ({@code metricsExporterLabelPair}, ROCm/gpu-operator
     * internal/metricsexporter/metricsexporter.go @ 6df13c1).
     */
    public static final String AMDGPU_LABEL_SELECTOR = "app.kubernetes.io/name=metrics-exporter";

    /**
     * Port 5000: the chart's {@code service.ClusterIP.port} (helm-charts/values.yaml), an unnamed
     * container port there; the operator's {@code servicePort}, a port named {@code exporter-port}.
     * Matching by number finds both.
     */
    public static final int AMDGPU_PORT = 5000;

    /** AMD device-metrics-exporter's Helm chart and GPU Operator defaults. */
    public static final GpuExporterConfig AMDGPU_DEFAULT =
        new GpuExporterConfig(false, AMDGPU_LABEL_SELECTOR, AMDGPU_PORT, "", List.of(), "/metrics");

    public GpuExporterConfig {
      namespaces = List.copyOf(namespaces);
    }
  }
}
