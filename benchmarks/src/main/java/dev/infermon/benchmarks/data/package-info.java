/**
 * Realistic data for benchmarks: {@link dev.infermon.benchmarks.data.LlmSeriesGenerator} evolves a
 * real vLLM scrape's series over a simulated fleet.
 */
package dev.infermon.benchmarks.data;
