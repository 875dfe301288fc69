package dev.infermon.storage;

/** A failure at the storage seam. Subclasses name the domain errors callers handle. */
public class StorageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StorageException(String message) {
    super(message);
  }

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
