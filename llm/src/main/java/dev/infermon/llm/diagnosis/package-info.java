/**
 * Diagnosis: per model and pod over a window, the states of the causal chain (saturated, KV
 * pressure, deferred by configuration, idle GPU with a long queue, slow pod, errors rising, GPU
 * memory near full, prefill/decode bottleneck, restarted), each with its evidence. Reads the store
 * through {@code QueryBackend} range queries only, compiled by the dashboard's {@code
 * PromqlCompiler} for the engines the shared inventory finds. {@link
 * dev.infermon.llm.diagnosis.DiagnosisService} is the front door (default window, step rule,
 * thresholds); it is thread-safe when its backend is; requests and results are immutable.
 */
package dev.infermon.llm.diagnosis;
