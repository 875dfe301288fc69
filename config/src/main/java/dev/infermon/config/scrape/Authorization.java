package dev.infermon.config.scrape;

import dev.infermon.config.value.Secret;

/**
 * The {@code Authorization} header ({@code authorization}): type (default {@code Bearer}) and
 * credentials, inline or from a file. {@code bearer_token} and {@code bearer_token_file} are read
 * into this, as Prometheus does.
 */
public record Authorization(String type, Secret credentials, String credentialsFile) {
  /** The default type. */
  public static final String BEARER = "Bearer";
}
