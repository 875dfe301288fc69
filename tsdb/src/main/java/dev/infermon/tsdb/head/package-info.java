/**
 * The head: the in-memory part of the tsdb that takes every append and serves the recent data.
 *
 * <p>{@link dev.infermon.tsdb.head.Head} keeps one {@code MemSeries} per label set (label names
 * shared per names tuple, strings interned): the series is its own open XOR chunk and refers to its
 * completed chunks, which a {@code ChunkStore} holds in memory-mapped segment files (or arrays for
 * a head without a directory). Beside the series: an inverted index ({@link
 * dev.infermon.tsdb.index.MemPostings}) and per-family metadata. Writers use {@code HeadAppender}
 * transactions; readers use a {@code HeadQuerier}. {@link dev.infermon.tsdb.head.HeadLog} is the
 * hook through which the write-ahead log sees every series and commit before it becomes visible.
 *
 * <p>Locking: every series is guarded by its own monitor (the finest possible lock striping: no two
 * series share a lock, and no lock is shared by all appends). The label → series map ({@code
 * SeriesTable}) is an open-addressing table read without locks; creating a series takes the table's
 * monitor, and the index takes a write lock only when a series is created or removed.
 */
package dev.infermon.tsdb.head;
