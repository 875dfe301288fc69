package dev.infermon.llm.capacity;

import java.util.List;

/**
 * The capacity estimates of one request: per model (across its pods) and per pod. Immutable.
 *
 * @param endMs the end of the history read (now, unless asked otherwise)
 * @param lookbackMs how far back the history was read
 * @param stepMs the step the history was read at (one point per step)
 * @param models one per model and namespace, in name order
 * @param pods one per pod, in model and name order
 */
public record CapacityReport(
    long endMs, long lookbackMs, long stepMs, List<Headroom> models, List<Headroom> pods) {
  /** Copies. */
  public CapacityReport {
    models = List.copyOf(models);
    pods = List.copyOf(pods);
  }
}
