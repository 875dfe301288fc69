package dev.infermon.storage;

import java.io.IOException;

/**
 * A commit failed because the storage cannot write now: an I/O error such as a full disk. Nothing
 * of the transaction is visible or durable, and the same request may succeed once the cause is
 * gone, so callers report it as temporary (the remote-write receiver answers 503, which senders
 * retry). The message names the operation, the file and the operating system's reason.
 */
public final class StorageUnavailableException extends StorageException {
  private static final long serialVersionUID = 1L;

  private final boolean noSpace;

  /**
   * @param message what failed, where, and the operating system's reason
   * @param cause the I/O error
   */
  public StorageUnavailableException(String message, IOException cause) {
    super(message, cause);
    this.noSpace = isNoSpace(cause);
  }

  /** Whether the cause is a full device or an exhausted quota. */
  public boolean noSpace() {
    return noSpace;
  }

  /**
   * True when the error, or one of its causes, is the kernel's ENOSPC or EDQUOT. The JDK reports
   * them only as the message of a plain {@link IOException} ("No space left on device", "Disk quota
   * exceeded"), so the message is what can be checked.
   */
  public static boolean isNoSpace(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage();
      if (m != null && (m.contains("No space left on device") || m.contains("quota exceeded"))) {
        return true;
      }
    }
    return false;
  }
}
