/**
 * Benchmarks of the exposition parsers: {@link dev.infermon.benchmarks.textparse.TextParseCpuMain}
 * (CPU time per page) and {@link dev.infermon.benchmarks.textparse.TextParseBenchmark} (JMH:
 * throughput, and allocation per page with {@code -prof gc}).
 */
package dev.infermon.benchmarks.textparse;
