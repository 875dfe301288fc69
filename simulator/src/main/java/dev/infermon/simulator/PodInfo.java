package dev.infermon.simulator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One scrape target of the fleet as the inventory describes it: the Kubernetes metadata a real
 * discovery would attach, and what runs there.
 *
 * @param name the pod name ({@code pod})
 * @param namespace {@code namespace}
 * @param workloadName {@code workload_name} (the StatefulSet or RoleBasedGroup)
 * @param backend {@code backend}
 * @param role {@code prefill} or {@code decode} for PD pods, {@code worker} for an aggregated
 *     Dynamo worker, {@code frontend} for Dynamo's frontend (the operator's component types, as
 *     discovery labels them), else empty
 * @param engine {@code vllm}, {@code sglang}, {@code sglang-gateway}, {@code tgi} or {@code
 *     dcgm-exporter}
 * @param version the engine release whose page is served
 * @param model the served model, empty for exporters
 * @param node the node the pod runs on
 * @param gpus GPUs allocated to the pod (all GPUs of the node for an exporter)
 * @param dataParallel data-parallel engines (vLLM {@code engine} label values)
 * @param tensorParallel GPUs per engine
 */
public record PodInfo(
    String name,
    String namespace,
    String workloadName,
    Backend backend,
    String role,
    String engine,
    String version,
    String model,
    String node,
    int gpus,
    int dataParallel,
    int tensorParallel) {

  /** The same pod on another node. */
  public PodInfo withNode(String newNode) {
    return new PodInfo(
        name,
        namespace,
        workloadName,
        backend,
        role,
        engine,
        version,
        model,
        newNode,
        gpus,
        dataParallel,
        tensorParallel);
  }

  /** Whether this is a prefill or decode server of a disaggregated pair. */
  public boolean disaggregated() {
    return role.equals("prefill") || role.equals("decode");
  }

  /**
   * The labels a scrape of this target gets: {@code namespace}, {@code pod}, {@code workload_name},
   * {@code backend} (none for a Dynamo worker), and {@code role} where the pod has one. An exporter
   * gets only {@code backend} and {@code workload_name}: its GPU series carry their own {@code
   * namespace} and {@code pod} (the inference pod they are attributed to), which target labels
   * would otherwise clobber.
   */
  public Map<String, String> targetLabels() {
    Map<String, String> labels = new LinkedHashMap<>();
    if (!backend.gpuExporter()) {
      labels.put("namespace", namespace);
      labels.put("pod", name);
    }
    labels.put("workload_name", workloadName);
    if (!backend.label().isEmpty()) {
      labels.put("backend", backend.label());
    }
    if (!role.isEmpty()) {
      labels.put("role", role);
    }
    if (backend == Backend.TGI) {
      // TGI's page names no model: a relabel rule from the pod's model label gives it
      labels.put("model_name", model);
    }
    return labels;
  }
}
