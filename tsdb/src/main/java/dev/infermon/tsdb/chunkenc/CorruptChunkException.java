package dev.infermon.tsdb.chunkenc;

import dev.infermon.storage.StorageException;

/** A chunk's bytes end before its header's sample count is decoded, or are otherwise malformed. */
public final class CorruptChunkException extends StorageException {
  private static final long serialVersionUID = 1L;

  public CorruptChunkException(String message) {
    super("corrupt chunk: " + message);
  }
}
