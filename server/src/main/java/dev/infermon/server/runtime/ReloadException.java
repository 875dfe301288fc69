package dev.infermon.server.runtime;

/**
 * A configuration that loaded but that the running process did not take: the message names each
 * component that refused or failed ({@code "web: web.listen_address cannot change ..."}). The
 * running configuration stays, in every component.
 */
public final class ReloadException extends Exception {
  private static final long serialVersionUID = 1L;

  ReloadException(String message, Throwable cause) {
    super(message, cause);
  }
}
