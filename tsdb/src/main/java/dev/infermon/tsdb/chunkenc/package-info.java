/**
 * Gorilla-style XOR chunks, bit for bit the layout of Prometheus's {@code tsdb/chunkenc/xor.go}.
 *
 * <p>A chunk is a 2-byte big-endian sample count followed by a bit stream: the first sample as a
 * signed varint timestamp and 64 raw value bits, the second as an unsigned varint time delta and an
 * XOR-encoded value, every later one as a delta-of-delta timestamp (1, 16, 20, 24 or 68 bits) and
 * an XOR-encoded value (1 bit when unchanged). {@link dev.infermon.tsdb.chunkenc.XorChunk} appends;
 * {@link dev.infermon.tsdb.chunkenc.XorIterator} decodes straight from any byte array slice (for
 * example a block file's bytes) without copying.
 */
package dev.infermon.tsdb.chunkenc;
