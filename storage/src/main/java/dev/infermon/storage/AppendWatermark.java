package dev.infermon.storage;

import java.util.OptionalLong;

/**
 * What a storage committed since a mark: lets a reader that kept what it read (a results cache)
 * tell which of it the storage may have changed since. A value computed from samples at or before
 * {@code t} is unchanged as long as nothing at or before {@code t} was committed after it was read;
 * the mark, read before reading, and {@link #lowestSince} say whether that holds.
 *
 * <p>Threading: thread-safe. A commit is counted once all of its samples are visible to readers, so
 * a mark read after that commit needs nothing of it, and a mark read before it (or while it runs)
 * sees it in {@link #lowestSince}.
 */
public interface AppendWatermark {
  /** A mark to read before reading the storage. */
  long mark();

  /**
   * The lowest sample timestamp committed since {@code mark} was read, {@link Long#MAX_VALUE} when
   * nothing was; empty when the storage no longer keeps track that far back.
   */
  OptionalLong lowestSince(long mark);
}
