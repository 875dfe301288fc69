/**
 * Byte-level encoding shared by the on-disk formats (write-ahead log, block index, chunk files): a
 * growable {@link dev.infermon.tsdb.encoding.EncodingBuffer} for writing and a bounds-checked
 * {@link dev.infermon.tsdb.encoding.DecodingBuffer} for reading, with Go-compatible varints and
 * big-endian fixed-width integers. Corrupt input raises {@link
 * dev.infermon.tsdb.encoding.CorruptDataException} instead of an index error, so readers can cut or
 * skip cleanly. Mirrors Prometheus's {@code tsdb/encoding}.
 */
package dev.infermon.tsdb.encoding;
