package dev.infermon.llm.diagnosis;

/**
 * What users feel, as the default alert pack watches it: a diagnosis checks each symptom per pod
 * and per model (as the pack groups, by {@code namespace, model_name}) with the pack's thresholds,
 * and every symptom it sees is either explained by a state ({@link State#explains}) or reported as
 * {@link State#CAUSE_NOT_FOUND}, so a firing alert never meets "nothing looks wrong".
 */
public enum Symptom {
  /** The TTFT quantile of the alert pack above its threshold ({@code LLMTimeToFirstTokenHigh}). */
  TTFT_HIGH("ttft-high"),
  /**
   * More requests waiting than the pack allows while the engine preempts ({@code
   * LLMRequestsQueuedWhilePreempting}).
   */
  QUEUED_WHILE_PREEMPTING("queued-while-preempting"),
  /**
   * The share of finished requests that fail above the pack's ratio ({@code
   * LLMRequestFailuresHigh}).
   */
  FAILURES_HIGH("failures-high"),
  /** Mean inter-token latency above {@link Thresholds#itlHigh} (no default alert watches it). */
  ITL_HIGH("itl-high");

  private final String id;

  Symptom(String id) {
    this.id = id;
  }

  /** The stable id ({@code ttft-high}). */
  public String id() {
    return id;
  }
}
