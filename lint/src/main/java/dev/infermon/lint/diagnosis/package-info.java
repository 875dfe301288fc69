/**
 * Diagnosis: per model and pod over a window, the states of the causal chain (saturated, KV
 * pressure, deferred by configuration, idle GPU with a long queue, slow pod, errors rising, GPU
 * memory near full, prefill/decode bottleneck, restarted), each with its evidence. Reads the store
 * through {@code QueryBackend} range queries only. {@link dev.infermon.lint.diagnosis.Diagnoser} is
 * thread-safe when its backend is; results are immutable.
 */
package dev.infermon.lint.diagnosis;
