package dev.infermon.tsdb.block;

import dev.infermon.storage.StorageException;

/**
 * A block's files do not read as specified in {@code docs/format/}: the message names the file and
 * what is wrong. Raised when a block is opened (the database then skips the block) or, for damage
 * only found when a series or chunk is read, by the query.
 */
public final class CorruptBlockException extends StorageException {
  private static final long serialVersionUID = 1L;

  public CorruptBlockException(String message) {
    super(message);
  }

  public CorruptBlockException(String message, Throwable cause) {
    super(message, cause);
  }
}
