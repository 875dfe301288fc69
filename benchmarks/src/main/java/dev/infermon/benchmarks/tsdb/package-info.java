/**
 * Benchmarks of the tsdb: append throughput through the head's {@link
 * dev.infermon.storage.Appender} ({@link dev.infermon.benchmarks.tsdb.HeadAppendCpuMain}, {@link
 * dev.infermon.benchmarks.tsdb.HeadAppendBenchmark}), select-and-decode throughput ({@link
 * dev.infermon.benchmarks.tsdb.HeadSelectBenchmark}), heap per active series ({@link
 * dev.infermon.benchmarks.tsdb.HeadMemoryMain}), the head's open time from a write-ahead log
 * ({@link dev.infermon.benchmarks.tsdb.HeadReplayBenchmark}) and bytes per sample in blocks ({@link
 * dev.infermon.benchmarks.tsdb.DiskBytesPerSample}), on {@link
 * dev.infermon.benchmarks.data.LlmSeriesGenerator} data; and the chained iterator over blocks and
 * head ({@link dev.infermon.benchmarks.tsdb.ChainIterateCpuMain}, {@link
 * dev.infermon.benchmarks.tsdb.ChainIterateBenchmark}).
 */
package dev.infermon.benchmarks.tsdb;
