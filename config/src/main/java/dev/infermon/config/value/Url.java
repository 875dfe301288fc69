package dev.infermon.config.value;

import java.net.URI;

/**
 * An http(s) URL from the configuration. {@link #toString()} replaces a password in the user info
 * with {@code xxxxx}, as Prometheus prints URLs, so a URL with credentials is safe to log.
 */
public record Url(URI uri) {
  /** The URL with any password replaced by {@code xxxxx}. */
  public String redacted() {
    String info = uri.getRawUserInfo();
    if (info == null || !info.contains(":")) {
      return uri.toString();
    }
    String user = info.substring(0, info.indexOf(':'));
    return uri.toString().replace(info + "@", user + ":xxxxx@");
  }

  @Override
  public String toString() {
    return redacted();
  }
}
