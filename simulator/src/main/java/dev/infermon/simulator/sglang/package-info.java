/**
 * SGLang as the simulator exposes it (≈v0.5.9, {@code collector.py} at 00ae9c1): what a server
 * counts and samples ({@link dev.infermon.simulator.sglang.SglangMetrics}), its page in
 * prometheus_client's multiprocess layout, one set of scheduler series per {@code tp_rank}, and the
 * gateway's {@code /engine_metrics} rewrite to the {@code sglang_} spelling. Not thread-safe.
 */
package dev.infermon.simulator.sglang;
