package dev.infermon.llm.efficiency;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one pod used and produced over the window, filled in by {@link EfficiencyService} from its
 * queries' answers; a null field means the pod has no series of that signal (not zero). Confined to
 * the computation that builds it.
 */
final class PodUsage {
  final String namespace;
  final String pod;
  String model = "";
  String workload = "";

  /** Generated tokens; null without a generated-token counter. */
  Double tokens;

  /**
   * GPU-seconds per {@code modelName} (dcgm-exporter's, or AMD's {@code card_model}); empty without
   * attributed GPUs.
   */
  final Map<String, Double> gpuSeconds = new TreeMap<>();

  /** GPU count at each sampled time, summed over GPU models. */
  final Map<Long, Double> gpusAt = new TreeMap<>();

  /** Running requests at each sampled time; empty without a running-requests gauge. */
  final Map<Long, Double> runningAt = new TreeMap<>();

  /** Engines asleep (vLLM sleep mode) at each sampled time; empty without the sleep gauge. */
  final Map<Long, Double> asleepAt = new TreeMap<>();

  /** Joules the pod's GPUs used; null without an energy counter on them. */
  Double energyJoules;

  PodUsage(String namespace, String pod) {
    this.namespace = namespace;
    this.pod = pod;
  }

  String key() {
    return namespace + "/" + pod;
  }

  /**
   * GPU-seconds at the sampled times the pod ran no request while awake; null when either side is
   * unknown. A sleeping engine's GPU is idle by choice and counted by {@link #asleepGpuSeconds}.
   */
  Double idleGpuSeconds(long stepMs) {
    if (gpusAt.isEmpty() || runningAt.isEmpty()) {
      return null;
    }
    double idle = 0;
    for (Map.Entry<Long, Double> e : gpusAt.entrySet()) {
      Double running = runningAt.get(e.getKey());
      if (running != null && running == 0 && !asleep(e.getKey())) {
        idle += e.getValue() * stepMs / 1000.0;
      }
    }
    return idle;
  }

  /** GPU-seconds at the sampled times an engine of the pod was asleep (0 without the gauge). */
  double asleepGpuSeconds(long stepMs) {
    double asleep = 0;
    for (Map.Entry<Long, Double> e : gpusAt.entrySet()) {
      if (asleep(e.getKey())) {
        asleep += e.getValue() * stepMs / 1000.0;
      }
    }
    return asleep;
  }

  private boolean asleep(long t) {
    Double a = asleepAt.get(t);
    return a != null && a > 0;
  }
}
