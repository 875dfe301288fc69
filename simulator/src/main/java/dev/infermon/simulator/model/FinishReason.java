package dev.infermon.simulator.model;

/** Why a request left the engine; the engines' own spellings are chosen by their metrics. */
public enum FinishReason {
  /** The model emitted a stop token. */
  STOP,
  /** The request reached its {@code max_tokens}. */
  LENGTH,
  /** The client went away (or the router cancelled it). */
  ABORT,
  /** The engine failed the request. */
  ERROR
}
