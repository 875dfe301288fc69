package dev.infermon.storage;

/** Something that can be read. Thread-safe: queriers may be opened from any thread. */
@FunctionalInterface
public interface Queryable {
  /** A new read view; the caller must close it. */
  Querier querier();
}
