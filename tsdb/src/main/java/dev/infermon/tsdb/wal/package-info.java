/**
 * The write-ahead log: every committed series and sample is appended here before the commit
 * returns, so the head can be rebuilt after a crash. Segments ({@code 00000000}, {@code 00000001},
 * ...) of framed records with a CRC32C each; {@link dev.infermon.tsdb.wal.WalWriter} appends,
 * {@link dev.infermon.tsdb.wal.WalReplay} reads and repairs a torn tail, {@link
 * dev.infermon.tsdb.wal.Checkpoint} folds old segments into a checkpoint after head compaction. The
 * bytes are specified in {@code docs/format/wal.md}; the durability policy is stated on {@link
 * dev.infermon.tsdb.wal.WalWriter}.
 */
package dev.infermon.tsdb.wal;
