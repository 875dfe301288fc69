/**
 * trtllm-serve's Prometheus page: {@link dev.infermon.simulator.trtllm.TrtllmMetrics} counts what
 * TensorRT-LLM's {@code MetricsCollector} records and when, {@link
 * dev.infermon.simulator.trtllm.TrtllmPage} writes it as prometheus_client's multiprocess collector
 * does, for {@code /prometheus/metrics}.
 */
package dev.infermon.simulator.trtllm;
