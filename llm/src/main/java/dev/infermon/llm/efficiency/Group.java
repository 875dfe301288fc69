package dev.infermon.llm.efficiency;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of one model, workload or pod. Immutable.
 *
 * @param labels what identifies it: {@code model_name}; {@code namespace} and {@code
 *     workload_name}; or {@code namespace}, {@code pod}, {@code model_name} and {@code
 *     workload_name} (a label the pod's series lack is left out)
 * @param pods the pods it is summed over, as {@code namespace/pod}, sorted
 * @param figures its figures over the window
 */
public record Group(Map<String, String> labels, List<String> pods, Figures figures) {
  public Group {
    labels = java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
    pods = List.copyOf(pods);
  }
}
