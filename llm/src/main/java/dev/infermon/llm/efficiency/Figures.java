package dev.infermon.llm.efficiency;

import java.util.Map;
import java.util.TreeMap;

/**
 * The efficiency of a model, a workload or a pod over a window. Each figure is present or says why
 * not (docs/http-api.md#efficiency). Immutable.
 *
 * @param generatedTokens output tokens generated in the window
 * @param gpuSeconds seconds of GPU attributed to the pods, summed over their GPUs
 * @param idleGpuSeconds the part of {@code gpuSeconds} in which the pod ran no request while awake
 * @param asleepGpuSeconds the part of {@code gpuSeconds} in which an engine of the pod slept (vLLM
 *     sleep mode): idle by choice, not counted in {@code idleGpuSeconds}
 * @param energyJoules what the pods' GPUs used (the GPU exporters' energy counts)
 * @param tokensPerGpuSecond {@code generatedTokens / gpuSeconds}
 * @param tokensPerJoule {@code generatedTokens / energyJoules}
 * @param cost the GPU-hours priced by {@code llm.cost}, in its currency
 * @param costPerMillionTokens {@code cost / generatedTokens x 10^6}
 * @param gpuSecondsByGpuModel {@code gpuSeconds} per {@code modelName} (dcgm-exporter's, or AMD's
 *     {@code card_model}), sorted
 */
public record Figures(
    Figure generatedTokens,
    Figure gpuSeconds,
    Figure idleGpuSeconds,
    Figure asleepGpuSeconds,
    Figure energyJoules,
    Figure tokensPerGpuSecond,
    Figure tokensPerJoule,
    Figure cost,
    Figure costPerMillionTokens,
    Map<String, Double> gpuSecondsByGpuModel) {
  public Figures {
    gpuSecondsByGpuModel =
        java.util.Collections.unmodifiableMap(new TreeMap<>(gpuSecondsByGpuModel));
  }

  /**
   * Joules per generated token, {@code energyJoules / generatedTokens}: what the dashboard's energy
   * per generated token panels draw, over the whole window.
   */
  public Figure joulesPerToken() {
    return Totals.ratio(energyJoules, generatedTokens, "no tokens generated in the window");
  }
}
