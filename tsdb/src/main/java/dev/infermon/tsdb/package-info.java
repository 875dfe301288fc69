/**
 * The embedded time-series database: an in-memory head with Gorilla-compressed chunks and a
 * postings index, a write-ahead log, immutable on-disk blocks, compaction and retention.
 */
package dev.infermon.tsdb;
