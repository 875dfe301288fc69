/**
 * The canonical signals (requests running and waiting, KV usage, token counters, latency
 * histograms, GPU activity) that panels and alerts are written in, and how their series aggregate.
 * Each engine's catalog maps them to its own families. Immutable enums; thread-safe.
 */
package dev.infermon.llm.signals;
