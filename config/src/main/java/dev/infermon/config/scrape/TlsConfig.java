package dev.infermon.config.scrape;

import dev.infermon.config.value.Secret;

/**
 * TLS settings of an HTTP client ({@code tls_config}), as in prometheus/common. File names are
 * resolved against the configuration file's directory.
 */
public record TlsConfig(
    String ca,
    String caFile,
    String cert,
    String certFile,
    Secret key,
    String keyFile,
    String serverName,
    boolean insecureSkipVerify,
    String minVersion,
    String maxVersion) {
  /** Nothing set: system roots, no client certificate. */
  public static final TlsConfig DEFAULT =
      new TlsConfig("", "", "", "", Secret.NONE, "", "", false, "", "");

  /** Versions accepted by {@code min_version} and {@code max_version}. */
  public static final java.util.List<String> VERSIONS =
      java.util.List.of("TLS10", "TLS11", "TLS12", "TLS13");
}
