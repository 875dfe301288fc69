/**
 * Diagnosis: per model and pod over a window, the states of the causal chain (saturated, KV
 * pressure, deferred by configuration, idle GPU with a long queue, prefill-bound, decode-bound,
 * slow pod, errors rising with their finish reasons, GPU memory near full, prefill/decode
 * bottleneck, restarted), each with its evidence; the symptoms the default alert pack watches
 * (TTFT, waiting while preempting, failures) and slow streaming, each tied to the states that
 * explain it or reported as {@code cause-not-found} with the signals that could not be read; and,
 * per pod, every signal it could not read, which is never judged as fine. Reads the store through
 * {@code QueryBackend} range queries only, compiled by the dashboard's {@code PromqlCompiler} for
 * the engines the shared inventory finds. {@link dev.infermon.llm.diagnosis.DiagnosisService} is
 * the front door (default window, step rule, thresholds, the alert pack's thresholds as configured,
 * and the cause of an active alert, {@link dev.infermon.llm.diagnosis.AlertCause}); it is
 * thread-safe when its backend is; requests and results are immutable.
 */
package dev.infermon.llm.diagnosis;
