package dev.infermon.tsdb;

/**
 * Counts of the background work a {@link Tsdb} has done since it was opened.
 *
 * @param headCompactions blocks cut from the head (each one block range)
 * @param blockCompactions merges of several blocks into one
 * @param failedCompactions merges that failed (their blocks are left as they are)
 * @param retentionDeletedBlocks blocks deleted by time or size retention
 */
public record CompactionStats(
    long headCompactions,
    long blockCompactions,
    long failedCompactions,
    long retentionDeletedBlocks) {}
