package dev.infermon.config.app;

import dev.infermon.config.value.Secret;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a Prometheus web configuration file ({@code --web.config.file}, the exporter-toolkit format)
 * asks of the HTTP server, as far as infermon honours it; a loader refuses every setting it cannot
 * honour. Immutable.
 *
 * @param basicUsers {@code basic_auth_users}: user to bcrypt hash
 * @param tls {@code tls_server_config}, absent for plain HTTP
 * @param headers {@code http_server_config.headers}: added to every response
 */
public record WebConfigFile(
    Map<String, Secret> basicUsers, Optional<ServerTls> tls, Map<String, String> headers) {
  public WebConfigFile {
    basicUsers = Map.copyOf(basicUsers);
    headers = Map.copyOf(headers);
  }

  /** Whether client certificates are asked for, and what a missing or bad one means. */
  public enum ClientAuth {
    /** {@code NoClientCert}. */
    NONE,
    /** {@code VerifyClientCertIfGiven}: a certificate given must verify against the CA. */
    VERIFY_IF_GIVEN,
    /** {@code RequireAndVerifyClientCert}: a verified certificate is required. */
    REQUIRE_AND_VERIFY
  }

  /**
   * {@code tls_server_config}.
   *
   * @param protocols the TLS versions from {@code min_version} to {@code max_version}, as the JDK
   *     names them ({@code TLSv1.2}, {@code TLSv1.3})
   * @param cipherSuites {@code cipher_suites} (IANA names, which Go and the JDK share); empty for
   *     the JDK's defaults
   */
  public record ServerTls(
      String certFile,
      String keyFile,
      ClientAuth clientAuth,
      String clientCaFile,
      List<String> protocols,
      List<String> cipherSuites,
      boolean preferServerCipherSuites) {
    public ServerTls {
      protocols = List.copyOf(protocols);
      cipherSuites = List.copyOf(cipherSuites);
    }
  }
}
