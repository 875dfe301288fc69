package dev.infermon.scrape.http1;

/**
 * Why an {@link Http1Client} exchange failed, other than by its deadline: a malformed or oversized
 * response, a body over the cap, a bad URL or header, a redirect that cannot be followed, or a
 * socket error. The message is what operators see as the target's last error: it names what was
 * wrong and never shows a header's value (it may be a secret).
 */
public final class Http1Exception extends Exception {
  private static final long serialVersionUID = 1L;

  Http1Exception(String message) {
    super(message);
  }

  Http1Exception(String message, Throwable cause) {
    super(message, cause);
  }
}
