package dev.infermon.llm.diagnosis;

import java.util.List;

/**
 * A state diagnosis sees for one pod (or, for a prefill/decode bottleneck or a model's unexplained
 * symptom, one model), with the evidence. Immutable.
 *
 * @param state the state
 * @param model {@code model_name}
 * @param namespace the pod's namespace
 * @param pod the pod ("" for a model-level finding)
 * @param summary one sentence with the numbers
 * @param evidence the facts, most telling first
 * @param symptoms the symptoms seen on the pod or model that this finding explains ({@link
 *     State#CAUSE_NOT_FOUND}: the one it could not explain), in symptom order
 * @param notRead the signals the state would have read and could not, for this pod or model ({@code
 *     queue time}, {@code prefix cache}): what the finding could not rule in or out
 */
public record Finding(
    State state,
    String model,
    String namespace,
    String pod,
    String summary,
    List<Evidence> evidence,
    List<Symptom> symptoms,
    List<String> notRead) {
  public Finding {
    if (state == null || model == null || namespace == null || pod == null || summary == null) {
      throw new IllegalArgumentException("a finding needs a state, model, namespace, pod, summary");
    }
    evidence = List.copyOf(evidence);
    symptoms = List.copyOf(symptoms);
    notRead = List.copyOf(notRead);
  }

  /** A finding that explains no symptom seen and misses no signal. */
  public Finding(
      State state,
      String model,
      String namespace,
      String pod,
      String summary,
      List<Evidence> evidence) {
    this(state, model, namespace, pod, summary, evidence, List.of(), List.of());
  }

  /** This finding with {@code s} as the symptoms it explains. */
  Finding withSymptoms(List<Symptom> s) {
    return new Finding(state, model, namespace, pod, summary, evidence, s, notRead);
  }
}
