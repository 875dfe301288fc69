package dev.infermon.tsdb.head;

/**
 * A snapshot of the head's counters (each read atomically, the set not as a whole).
 *
 * @param series series currently in the head
 * @param seriesCreated series created since start (replay included)
 * @param seriesRemoved series removed by truncation
 * @param samplesAppended samples made visible (replay included)
 * @param outOfOrder samples rejected as older than their series' newest
 * @param duplicate samples rejected for a different value at the newest timestamp
 * @param outOfBounds samples rejected as older than the appendable window
 * @param tooFarInFuture samples rejected as later than the future window
 * @param minTime earliest sample time, {@link Long#MAX_VALUE} when empty
 * @param maxTime latest sample time, {@link Long#MIN_VALUE} when empty
 */
public record HeadStats(
    long series,
    long seriesCreated,
    long seriesRemoved,
    long samplesAppended,
    long outOfOrder,
    long duplicate,
    long outOfBounds,
    long tooFarInFuture,
    long minTime,
    long maxTime) {}
