package dev.infermon.simulator.model;

/**
 * What an engine reports as it runs; each engine's metrics implement it and decide what to count.
 * Every method does nothing by default: a listener overrides only what it counts. Called
 * synchronously from {@link EngineModel#advanceTo(double)} on the caller's thread; the {@link
 * Request} passed in must not be kept beyond the call.
 */
public interface EngineListener {
  /**
   * The request arrived and joined the waiting queue (on the decode side of a prefill/decode pair:
   * once its KV arrived).
   */
  default void onQueued(Request r, double now) {}

  /**
   * A request was scheduled (also again after a preemption); {@code queried} prompt tokens were
   * looked up in the prefix cache and {@code hit} of them were found.
   */
  default void onScheduled(Request r, double now, int queried, int hit) {}

  /**
   * {@code steps} identical engine iterations of {@code duration} seconds each ended at {@code now}
   * (runs of decode-only steps are reported at once).
   */
  default void onIteration(
      double now, double duration, int steps, int prefillTokens, int decodeTokens, int batch) {}

  /** The prompt was computed and the first token produced. */
  default void onFirstToken(Request r, double now) {}

  /**
   * {@code tokens} decode tokens were produced by {@code decodeSeqs} sequences in one iteration
   * lasting {@code interval} seconds.
   */
  default void onDecode(int decodeSeqs, double interval) {}

  /** The request was preempted: its KV blocks were freed and it waits to be recomputed. */
  default void onPreempted(Request r, double now) {}

  /** The request left the engine. */
  default void onFinished(Request r, FinishReason reason, double now) {}
}
