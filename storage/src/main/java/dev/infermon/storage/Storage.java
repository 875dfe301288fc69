package dev.infermon.storage;

/** A full storage: writable, readable, with metadata. All methods are thread-safe. */
public interface Storage extends Appendable, Queryable, MetadataReader, AutoCloseable {
  /** The earliest timestamp the storage holds, or {@link Long#MAX_VALUE} when empty. */
  long startTime();

  /** Flushes what must survive and releases resources. */
  @Override
  void close();
}
