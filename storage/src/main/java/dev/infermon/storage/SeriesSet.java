package dev.infermon.storage;

import java.util.List;

/**
 * A lazy set of series, read once with {@link #next()} / {@link #at()}. Series come in label order
 * when the select asked for sorted output. Not thread-safe.
 */
public interface SeriesSet {
  /** Advances to the next series; false at the end. */
  boolean next();

  /** The current series. */
  Series at();

  /** Non-fatal problems met while selecting (for example a block that could not be read). */
  default List<String> warnings() {
    return List.of();
  }

  /** A set with no series. */
  SeriesSet EMPTY =
      new SeriesSet() {
        @Override
        public boolean next() {
          return false;
        }

        @Override
        public Series at() {
          throw new IllegalStateException("empty series set");
        }
      };
}
