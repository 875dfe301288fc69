/**
 * Triton Inference Server serving TensorRT-LLM through its tensorrtllm backend: what the server and
 * the backend count ({@link dev.infermon.simulator.triton.TritonMetrics}) and the page Triton
 * serves on its metrics port ({@link dev.infermon.simulator.triton.TritonPage}).
 */
package dev.infermon.simulator.triton;
