/**
 * Immutable on-disk blocks: a directory named by a ULID with {@code meta.json}, an {@code index}
 * (symbols, series with chunk references, postings per label pair, a postings offset table, a table
 * of contents; a CRC32C per section) and {@code chunks/} segment files of XOR or scaled-integer
 * chunks (the encoding chosen per chunk), read through memory maps. {@link
 * dev.infermon.tsdb.block.BlockWriter} builds a block from any sorted series set (the head's, or a
 * merge of blocks); {@link dev.infermon.tsdb.block.Block} opens one and hands out reference-counted
 * queriers; {@link dev.infermon.tsdb.block.CompactionPlanner}, {@link
 * dev.infermon.tsdb.block.Compactor} and {@link dev.infermon.tsdb.block.Retention} decide and do
 * merges and deletions. The bytes are specified in {@code docs/format/}.
 */
package dev.infermon.tsdb.block;
