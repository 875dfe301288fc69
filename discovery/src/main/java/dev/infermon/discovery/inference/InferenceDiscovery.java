package dev.infermon.discovery.inference;

import dev.infermon.config.app.InferenceConfig;
import dev.infermon.discovery.Discoverer;
import dev.infermon.discovery.kubernetes.PodDiscoverer;
import dev.infermon.discovery.kubernetes.PodWatch;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * infermon's own discovery from the {@code inference} section: inference pods (label selector,
 * namespaces, port name) and, under {@code inference.dcgm} and {@code inference.amdgpu},
 * dcgm-exporter and AMD device-metrics-exporter pods. The targets carry their final labels ({@link
 * InferenceTargets}), so the scrape pools that use these discoverers need no relabeling rules.
 */
public final class InferenceDiscovery {
  private InferenceDiscovery() {}

  /** The scrape pool name used for inference pods. */
  public static final String INFERENCE_POOL = InferenceTargets.INFERENCE_JOB;

  /** The scrape pool name used for dcgm-exporter pods. */
  public static final String DCGM_POOL = InferenceTargets.DCGM_JOB;

  /** The scrape pool name used for AMD device-metrics-exporter pods. */
  public static final String AMDGPU_POOL = InferenceTargets.AMDGPU_JOB;

  /** Inference pods, watched through {@code client} (owned by the caller). */
  public static Discoverer pods(InferenceConfig cfg, KubernetesClient client) {
    PodWatch watch = new PodWatch(client, cfg.namespaces(), cfg.labelSelector(), "");
    return new PodDiscoverer(watch, pod -> InferenceTargets.inference(pod, cfg));
  }

  /** dcgm-exporter pods, watched through {@code client} (owned by the caller). */
  public static Discoverer dcgm(InferenceConfig.GpuExporterConfig cfg, KubernetesClient client) {
    PodWatch watch = new PodWatch(client, cfg.namespaces(), cfg.labelSelector(), "");
    return new PodDiscoverer(watch, pod -> InferenceTargets.dcgm(pod, cfg));
  }

  /** AMD device-metrics-exporter pods, watched through {@code client} (owned by the caller). */
  public static Discoverer amdgpu(InferenceConfig.GpuExporterConfig cfg, KubernetesClient client) {
    PodWatch watch = new PodWatch(client, cfg.namespaces(), cfg.labelSelector(), "");
    return new PodDiscoverer(watch, pod -> InferenceTargets.amdgpu(pod, cfg));
  }
}
