/**
 * File-system helpers the persistent formats share: directory fsync, atomic publish of a directory
 * written under a temporary name, recursive delete, sizes, and {@link
 * dev.infermon.tsdb.fileutil.MappedFile}, a read-only memory map of a whole file of any size.
 * Mirrors Prometheus's {@code tsdb/fileutil}.
 */
package dev.infermon.tsdb.fileutil;
