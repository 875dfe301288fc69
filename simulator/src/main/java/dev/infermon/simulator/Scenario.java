package dev.infermon.simulator;

import dev.infermon.simulator.model.ScenarioEffects;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The fleet states the diagnosis must tell apart, switchable while the fleet runs (per fleet or per
 * pod). Each bends the queueing model rather than the numbers: more load, a smaller KV cache, a
 * batch cap, a slower card, failing requests, or a restart.
 */
public enum Scenario {
  /** Load well within capacity. */
  HEALTHY("healthy", ScenarioEffects.NONE),
  /** Twelve times the load: the queue grows, TTFT rises, the KV cache fills. */
  SATURATED("saturated", new ScenarioEffects(12, 1, 1, 0, 1, 0, 0, 0)),
  /** A small KV cache and long outputs: usage stays above 90% and preemptions are counted. */
  KV_PRESSURE("kv-pressure", new ScenarioEffects(3, 0.2, 1, 0, 3, 0, 0, 0)),
  /** Most requests need a LoRA slot and only one may run: they wait as {@code deferred}. */
  DEFERRED_BY_CONFIG("deferred-by-config", new ScenarioEffects(1, 1, 1, 0, 1, 0, 0.6, 1)),
  /** The batch is capped at 2 (a mis-set {@code max_num_seqs}): long queue, mostly idle GPU. */
  IDLE_GPU_LONG_QUEUE("idle-gpu-long-queue", new ScenarioEffects(1, 1, 1, 2, 1, 0, 0, 0)),
  /** One pod's GPU runs three times slower (a throttled card): its latency stands out. */
  SLOW_POD("slow-pod", new ScenarioEffects(1, 1, 3, 0, 1, 0, 0, 0)),
  /**
   * Prompts sixteen times longer and never sharing a cached prefix (retrieval with fresh
   * documents), at 0.05x the requests: the queue stays short while prefill makes the first token
   * slow, at any hour (inside the KV cache's ceiling at the daily peak in a burst too:
   * ScenarioCeilingTest).
   */
  LONG_PROMPTS("long-prompts", new ScenarioEffects(0.05, 1, 1, 0, 1, 0, 0, 0, 16, false)),
  /** A fifth of the requests fail. */
  ERROR_SPIKE("error-spike", new ScenarioEffects(1, 1, 1, 0, 1, 0.2, 0, 0)),
  /**
   * The pod restarts once: it is down for {@link #RESTART_DOWNTIME_SECONDS}, comes back with every
   * counter at zero, and then runs as it did before.
   */
  POD_RESTART("pod-restart", ScenarioEffects.NONE);

  /** How long a restarting pod is down, in seconds. */
  public static final double RESTART_DOWNTIME_SECONDS = 20;

  private final String cliName;
  private final ScenarioEffects effects;

  Scenario(String cliName, ScenarioEffects effects) {
    this.cliName = cliName;
    this.effects = effects;
  }

  /** The name used on the command line and the control endpoint. */
  public String cliName() {
    return cliName;
  }

  /** How the scenario bends an engine. */
  public ScenarioEffects effects() {
    return effects;
  }

  /** Whether the scenario targets one pod (slow-pod, pod-restart) when applied fleet-wide. */
  public boolean singlePod() {
    return this == SLOW_POD || this == POD_RESTART;
  }

  /**
   * The scenario with the given CLI name.
   *
   * @throws IllegalArgumentException naming the unknown name and the valid ones
   */
  public static Scenario fromCliName(String name) {
    for (Scenario s : values()) {
      if (s.cliName.equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "unknown scenario: \""
            + name
            + "\" (expected one of "
            + Arrays.stream(values()).map(Scenario::cliName).collect(Collectors.joining(", "))
            + ")");
  }

  @Override
  public String toString() {
    return cliName;
  }
}
