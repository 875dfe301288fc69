package dev.infermon.web.remotewrite;

/** A remote-write body that cannot be decoded or carries invalid series; answered with 400. */
public final class InvalidWriteRequestException extends Exception {
  private static final long serialVersionUID = 1L;

  public InvalidWriteRequestException(String message) {
    super(message);
  }
}
