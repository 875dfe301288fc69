package dev.infermon.simulator;

import dev.infermon.simulator.model.EngineParams;
import dev.infermon.simulator.model.Workload;
import java.util.List;

/**
 * A served model: how many GPUs one engine spans, what the engine can do, and the traffic one pod
 * receives. The built-in profiles are sized for an H100 80GB so that {@code healthy} runs at about
 * half of capacity at the daily peak and {@code saturated} (5x) exceeds it.
 *
 * @param name the served model name ({@code model_name})
 * @param tensorParallel GPUs per engine
 * @param params the engine
 * @param workload traffic per pod
 * @param weightsMiB model weights per GPU
 */
public record ModelProfile(
    String name, int tensorParallel, EngineParams params, Workload workload, double weightsMiB) {
  private static final int[] MAX_TOKENS = {256, 512, 1024, 2048};

  /** Validates. */
  public ModelProfile {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("model name must not be blank");
    }
    if (tensorParallel < 1) {
      throw new IllegalArgumentException("tensorParallel must be >= 1, got " + tensorParallel);
    }
  }

  /** Llama 3.1 8B on one GPU. */
  public static final ModelProfile LLAMA_8B =
      new ModelProfile(
          "meta-llama/Llama-3.1-8B-Instruct",
          1,
          new EngineParams(8192, 16, 256, 8192, 32768, 0.006, 0.002, 0.00005, 0.00025, 4e-9, 0),
          new Workload(1.5, 600, 0.9, 160, 0.8, MAX_TOKENS, 0.6, 0.005, 20, Workload.Phase.BOTH),
          15_320);

  /** Qwen 2.5 32B on two GPUs. */
  public static final ModelProfile QWEN_32B =
      new ModelProfile(
          "Qwen/Qwen2.5-32B-Instruct",
          2,
          new EngineParams(6144, 16, 256, 8192, 32768, 0.006, 0.004, 0.00009, 0.00045, 6e-9, 0),
          new Workload(0.7, 800, 0.9, 200, 0.8, MAX_TOKENS, 0.5, 0.005, 20, Workload.Phase.BOTH),
          31_250);

  /** A 70B reasoning distill on four GPUs: long outputs. */
  public static final ModelProfile LLAMA_70B =
      new ModelProfile(
          "deepseek-ai/DeepSeek-R1-Distill-Llama-70B",
          4,
          new EngineParams(5120, 16, 256, 8192, 131072, 0.007, 0.006, 0.00014, 0.0007, 8e-9, 0),
          new Workload(0.25, 900, 0.8, 500, 0.7, MAX_TOKENS, 0.4, 0.005, 40, Workload.Phase.BOTH),
          34_700);

  /** The built-in profiles, in the order the fleet assigns them. */
  public static final List<ModelProfile> BUILT_IN = List.of(LLAMA_8B, QWEN_32B, LLAMA_70B);

  /** The built-in profile named {@code name}, or the 8B profile renamed to it. */
  public static ModelProfile forName(String name) {
    for (ModelProfile p : BUILT_IN) {
      if (p.name.equals(name)) {
        return p;
      }
    }
    return new ModelProfile(
        name, LLAMA_8B.tensorParallel, LLAMA_8B.params, LLAMA_8B.workload, LLAMA_8B.weightsMiB);
  }

  /** A short DNS-safe slug of the model name for pod names ({@code llama-3-1-8b-instruct}). */
  public String slug() {
    String base = name.substring(name.lastIndexOf('/') + 1).toLowerCase(java.util.Locale.ROOT);
    String s = base.replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    return s.length() > 30 ? s.substring(0, 30).replaceAll("-+$", "") : s;
  }
}
