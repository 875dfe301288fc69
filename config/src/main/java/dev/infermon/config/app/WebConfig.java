package dev.infermon.config.app;

import dev.infermon.config.value.ByteSize;
import dev.infermon.config.value.Secret;
import java.util.List;
import java.util.Map;

/**
 * The {@code web} section: the HTTP listener of the API and UI, its limits, authentication and TLS.
 * Passwords are stored only as hashes ({@code $2y$...} bcrypt or {@code sha256:<hex>}).
 */
public record WebConfig(
    String listenAddress,
    int maxConcurrentQueries,
    ByteSize maxRequestBodySize,
    ByteSize remoteWriteMaxBodySize,
    Auth auth,
    Tls tls) {
  /** Who may call the API and UI; nothing configured means no authentication. */
  public record Auth(List<Secret> bearerTokens, Map<String, Secret> basicUsers) {
    public static final Auth NONE = new Auth(List.of(), Map.of());

    public boolean isEnabled() {
      return !bearerTokens.isEmpty() || !basicUsers.isEmpty();
    }
  }

  /** Serve HTTPS with this certificate and key; both empty means plain HTTP. */
  public record Tls(String certFile, String keyFile) {
    public static final Tls NONE = new Tls("", "");
  }

  public static final String DEFAULT_LISTEN_ADDRESS = "0.0.0.0:9090";
  public static final int DEFAULT_MAX_CONCURRENT_QUERIES = 20;
  public static final ByteSize DEFAULT_MAX_REQUEST_BODY_SIZE = ByteSize.ofMebibytes(10);
  public static final ByteSize DEFAULT_REMOTE_WRITE_MAX_BODY_SIZE = ByteSize.ofMebibytes(32);

  public static final WebConfig DEFAULT =
      new WebConfig(
          DEFAULT_LISTEN_ADDRESS,
          DEFAULT_MAX_CONCURRENT_QUERIES,
          DEFAULT_MAX_REQUEST_BODY_SIZE,
          DEFAULT_REMOTE_WRITE_MAX_BODY_SIZE,
          Auth.NONE,
          Tls.NONE);
}
