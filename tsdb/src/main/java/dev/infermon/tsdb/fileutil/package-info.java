/**
 * File-system helpers the persistent formats share: directory fsync, atomic publish of a directory
 * written under a temporary name, recursive delete, sizes, and {@link
 * dev.infermon.tsdb.fileutil.MappedFile}, a read-only memory map of a whole file of any size, and
 * {@link dev.infermon.tsdb.fileutil.ChannelIo}, channel I/O in slices so that no thread keeps a
 * native copy buffer as large as a file. Mirrors Prometheus's {@code tsdb/fileutil}.
 */
package dev.infermon.tsdb.fileutil;
