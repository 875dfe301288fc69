package dev.infermon.tsdb.encoding;

/**
 * Bytes on disk do not decode: truncated, a bad varint, a checksum mismatch. Readers catch it to
 * cut a torn log tail or to reject a block with a message naming the file.
 */
public final class CorruptDataException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CorruptDataException(String message) {
    super(message);
  }

  public CorruptDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
