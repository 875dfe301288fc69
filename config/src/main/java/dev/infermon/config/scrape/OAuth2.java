package dev.infermon.config.scrape;

import dev.infermon.config.value.Secret;
import dev.infermon.config.yaml.YamlKey;
import java.util.List;
import java.util.Map;

/** OAuth 2.0 client credentials ({@code oauth2}), as in prometheus/common. */
public record OAuth2(
    String clientId,
    Secret clientSecret,
    String clientSecretFile,
    List<String> scopes,
    String tokenUrl,
    Map<String, String> endpointParams,
    TlsConfig tlsConfig,
    @YamlKey(inline = true) ProxyConfig proxy) {}
