package dev.infermon.llm.diagnosis;

import java.util.List;

/**
 * A state diagnosis sees for one pod (or, for a prefill/decode bottleneck, one model), with the
 * evidence. Immutable.
 *
 * @param state the state
 * @param model {@code model_name}
 * @param namespace the pod's namespace ("" for a model-level finding)
 * @param pod the pod ("" for a model-level finding)
 * @param summary one sentence with the numbers
 * @param evidence the facts, most telling first
 */
public record Finding(
    State state,
    String model,
    String namespace,
    String pod,
    String summary,
    List<Evidence> evidence) {
  public Finding {
    evidence = List.copyOf(evidence);
  }
}
