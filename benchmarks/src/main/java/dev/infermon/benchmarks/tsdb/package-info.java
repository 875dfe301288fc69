/**
 * Benchmarks of the tsdb head: append throughput through the {@link dev.infermon.storage.Appender}
 * ({@link dev.infermon.benchmarks.tsdb.HeadAppendBenchmark}), select-and-decode throughput ({@link
 * dev.infermon.benchmarks.tsdb.HeadSelectBenchmark}) and heap per active series ({@link
 * dev.infermon.benchmarks.tsdb.HeadMemoryMain}), all on {@link
 * dev.infermon.benchmarks.data.LlmSeriesGenerator} data.
 */
package dev.infermon.benchmarks.tsdb;
