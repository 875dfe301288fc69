package dev.infermon.simulator.model;

/**
 * One request as it moves through an engine. The sampled facts (lengths, fate) are final; the
 * progress fields are updated by {@link EngineModel} only. Listeners may read it during a callback.
 * Times are epoch seconds.
 */
public final class Request {
  final long id;
  final double arrival;
  final int promptTokens;
  final int cachedTokens;
  final int maxTokens;
  final int targetOutput;
  final boolean failing;
  final double abortAt;
  final boolean deferredClass;

  String adapter; // the LoRA adapter it asks for (set on arrival), null for the base model
  double readyAt; // when the KV from the prefill peer has arrived (decode side of PD)
  double scheduledAt = Double.NaN;
  double firstTokenAt = Double.NaN;
  int prefillDone; // prompt tokens computed in the current attempt
  int prefillTarget; // prompt tokens this attempt must compute
  int generated;
  int blocks;
  int preemptions;
  boolean done;

  Request(
      long id,
      double arrival,
      int promptTokens,
      int cachedTokens,
      int maxTokens,
      int targetOutput,
      boolean failing,
      double abortAt,
      boolean deferredClass) {
    this.id = id;
    this.arrival = arrival;
    this.promptTokens = promptTokens;
    this.cachedTokens = cachedTokens;
    this.maxTokens = maxTokens;
    this.targetOutput = targetOutput;
    this.failing = failing;
    this.abortAt = abortAt;
    this.deferredClass = deferredClass;
    this.readyAt = arrival;
    this.prefillTarget = promptTokens - cachedTokens;
  }

  /** The request's sequence number within its engine. */
  public long id() {
    return id;
  }

  /** Arrival time, epoch seconds. */
  public double arrival() {
    return arrival;
  }

  /** Prompt length in tokens. */
  public int promptTokens() {
    return promptTokens;
  }

  /** Prompt tokens found in the prefix cache (a multiple of the block size). */
  public int cachedTokens() {
    return cachedTokens;
  }

  /** The client's {@code max_tokens}. */
  public int maxTokens() {
    return maxTokens;
  }

  /** Output tokens generated so far. */
  public int generated() {
    return generated;
  }

  /** When the request was first scheduled, or NaN. */
  public double scheduledAt() {
    return scheduledAt;
  }

  /** When its first token was produced, or NaN. */
  public double firstTokenAt() {
    return firstTokenAt;
  }

  /** The KV blocks it holds now (0 while it waits or after it left the engine). */
  public int blocks() {
    return blocks;
  }

  /** How often it was preempted. */
  public int preemptions() {
    return preemptions;
  }

  /** The LoRA adapter the request asks for, or null for the base model. */
  public String adapter() {
    return adapter;
  }

  /** Whether it waits on a scarce resource (counted as {@code deferred} while waiting). */
  public boolean deferredClass() {
    return deferredClass;
  }

  boolean prefillComplete() {
    return prefillDone >= prefillTarget;
  }

  int contextTokens() {
    return promptTokens + generated;
  }

  /**
   * Tokens whose KV this request holds alone. Its cached prefix lives in blocks shared with the
   * other requests that hit the same prefix, so the model does not charge them to each request.
   */
  int privateTokens() {
    return promptTokens + generated - cachedTokens;
  }
}
