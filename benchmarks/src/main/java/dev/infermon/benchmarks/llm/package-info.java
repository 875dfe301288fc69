/** Benchmarks of the LLM layer: what one diagnosis costs as the fleet grows. */
package dev.infermon.benchmarks.llm;
