package dev.infermon.config;

import static dev.infermon.config.ConfigSchema.AUTHORIZATION;
import static dev.infermon.config.ConfigSchema.BASIC_AUTH;
import static dev.infermon.config.ConfigSchema.HTTP_HEADER;
import static dev.infermon.config.ConfigSchema.OAUTH2;
import static dev.infermon.config.ConfigSchema.TLS;

import dev.infermon.config.scrape.Authorization;
import dev.infermon.config.scrape.BasicAuth;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.scrape.HttpHeader;
import dev.infermon.config.scrape.OAuth2;
import dev.infermon.config.scrape.ProxyConfig;
import dev.infermon.config.scrape.TlsConfig;
import dev.infermon.config.value.Secret;
import dev.infermon.config.yaml.MapView;
import dev.infermon.config.yaml.Node;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads prometheus/common's HTTP client settings, inlined in a scrape, discovery, Alertmanager or
 * remote config, with the checks and messages of {@code HTTPClientConfig.Validate}.
 */
final class HttpMapping {
  private HttpMapping() {}

  static HttpClientConfig read(MapView v, HttpClientConfig def) {
    Optional<BasicAuth> basic = Optional.empty();
    if (v.has("basic_auth")) {
      basic = Optional.of(basicAuth(v.map("basic_auth", BASIC_AUTH)));
    }
    Optional<Authorization> authz = Optional.empty();
    if (v.has("authorization")) {
      authz = Optional.of(authorization(v.map("authorization", AUTHORIZATION)));
    }
    Optional<OAuth2> oauth2 = Optional.empty();
    if (v.has("oauth2")) {
      oauth2 = Optional.of(oauth2(v.map("oauth2", OAUTH2)));
    }
    Secret bearer = v.secret("bearer_token");
    String bearerFile = v.file("bearer_token_file");
    if (bearer.isSet() && !bearerFile.isEmpty()) {
      v.error(
          "bearer_token_file",
          "at most one of bearer_token & bearer_token_file must be configured");
    } else if ((basic.isPresent() || oauth2.isPresent())
        && (bearer.isSet() || !bearerFile.isEmpty())) {
      v.error(
          bearer.isSet() ? "bearer_token" : "bearer_token_file",
          "at most one of basic_auth, oauth2, bearer_token & bearer_token_file must be configured");
    } else if (authz.isPresent() && (bearer.isSet() || !bearerFile.isEmpty())) {
      v.error(
          "authorization", "authorization is not compatible with bearer_token & bearer_token_file");
    } else if (authz.isPresent() && (basic.isPresent() || oauth2.isPresent())) {
      v.error(
          "authorization", "at most one of basic_auth, oauth2 & authorization must be configured");
    } else if (oauth2.isPresent() && basic.isPresent()) {
      v.error("oauth2", "at most one of basic_auth, oauth2 & authorization must be configured");
    } else if (bearer.isSet()) {
      // Prometheus turns the deprecated bearer_token fields into an authorization block.
      authz = Optional.of(new Authorization(Authorization.BEARER, bearer, ""));
    } else if (!bearerFile.isEmpty()) {
      authz = Optional.of(new Authorization(Authorization.BEARER, Secret.NONE, bearerFile));
    }
    TlsConfig tls = tls(v.map("tls_config", TLS));
    ProxyConfig proxy = proxy(v);
    Map<String, HttpHeader> headers = new LinkedHashMap<>();
    for (Map.Entry<String, Node.Entry> e : v.entries("http_headers").entrySet()) {
      MapView h =
          v.reader()
              .view(
                  e.getValue().value(),
                  e.getValue().keyPos(),
                  v.path("http_headers") + "." + e.getKey(),
                  HTTP_HEADER);
      List<Secret> secrets = h.strings("secrets", List.of()).stream().map(Secret::of).toList();
      List<String> files = h.strings("files", List.of()).stream().map(v.reader()::file).toList();
      headers.put(e.getKey(), new HttpHeader(h.strings("values", List.of()), secrets, files));
      h.finish();
    }
    return new HttpClientConfig(
        basic,
        authz,
        oauth2,
        tls,
        v.bool("follow_redirects", def.followRedirects()),
        v.bool("enable_http2", def.enableHttp2()),
        proxy,
        java.util.Collections.unmodifiableMap(headers));
  }

  private static BasicAuth basicAuth(MapView b) {
    String user = b.string("username", "");
    String userFile = b.file("username_file");
    Secret password = b.secret("password");
    String passwordFile = b.file("password_file");
    if (!user.isEmpty() && !userFile.isEmpty()) {
      b.error(
          "username_file",
          "at most one of basic_auth username, username_file & username_ref must be configured");
    }
    if (password.isSet() && !passwordFile.isEmpty()) {
      b.error(
          "password_file",
          "at most one of basic_auth password, password_file & password_ref must be configured");
    }
    b.finish();
    return new BasicAuth(user, userFile, password, passwordFile);
  }

  private static Authorization authorization(MapView a) {
    String type = a.string("type", "").trim();
    if (type.isEmpty()) {
      type = Authorization.BEARER;
    }
    if (type.equalsIgnoreCase("basic")) {
      a.error("type", "authorization type cannot be set to \"basic\", use \"basic_auth\" instead");
    }
    Secret credentials = a.secret("credentials");
    String file = a.file("credentials_file");
    if (credentials.isSet() && !file.isEmpty()) {
      a.error(
          "credentials_file",
          "at most one of authorization credentials & credentials_file must be configured");
    }
    a.finish();
    return new Authorization(type, credentials, file);
  }

  private static OAuth2 oauth2(MapView o) {
    String clientId = o.string("client_id", "");
    String tokenUrl = o.string("token_url", "");
    Secret secret = o.secret("client_secret");
    String secretFile = o.file("client_secret_file");
    if (clientId.isEmpty()) {
      o.error("oauth2 client_id must be configured");
    } else if (tokenUrl.isEmpty()) {
      o.error("oauth2 token_url must be configured");
    } else if (secret.isSet() && !secretFile.isEmpty()) {
      o.error(
          "client_secret_file",
          "at most one of oauth2 client_secret, client_secret_file & client_secret_ref must be configured");
    }
    OAuth2 result =
        new OAuth2(
            clientId,
            secret,
            secretFile,
            o.strings("scopes", List.of()),
            tokenUrl,
            o.stringMap("endpoint_params"),
            tls(o.map("tls_config", TLS)),
            proxy(o));
    o.finish();
    return result;
  }

  static TlsConfig tls(MapView t) {
    String ca = t.string("ca", "");
    String caFile = t.file("ca_file");
    String cert = t.string("cert", "");
    String certFile = t.file("cert_file");
    Secret key = t.secret("key");
    String keyFile = t.file("key_file");
    if (!ca.isEmpty() && !caFile.isEmpty()) {
      t.error("ca_file", "at most one of ca and ca_file must be configured");
    }
    if (!cert.isEmpty() && !certFile.isEmpty()) {
      t.error("cert_file", "at most one of cert and cert_file must be configured");
    }
    if (key.isSet() && !keyFile.isEmpty()) {
      t.error("key_file", "at most one of key and key_file must be configured");
    }
    boolean hasCert = !cert.isEmpty() || !certFile.isEmpty();
    boolean hasKey = key.isSet() || !keyFile.isEmpty();
    if (hasCert && !hasKey) {
      t.error(
          "exactly one of key or key_file must be configured when a client certificate is configured");
    } else if (hasKey && !hasCert) {
      t.error(
          "exactly one of cert or cert_file must be configured when a client key is configured");
    }
    String min = tlsVersion(t, "min_version");
    String max = tlsVersion(t, "max_version");
    TlsConfig result =
        new TlsConfig(
            ca,
            caFile,
            cert,
            certFile,
            key,
            keyFile,
            t.string("server_name", ""),
            t.bool("insecure_skip_verify", false),
            min,
            max);
    t.finish();
    return result;
  }

  private static String tlsVersion(MapView t, String key) {
    String v = t.string(key, "");
    if (!v.isEmpty() && !TlsConfig.VERSIONS.contains(v)) {
      t.error(key, "unknown TLS version: " + v);
      return "";
    }
    return v;
  }

  /** The proxy keys, inlined in an HTTP client or OAuth2 block. */
  private static ProxyConfig proxy(MapView v) {
    String url = v.string("proxy_url", "");
    if (!url.isEmpty()) {
      String problem = Checks.urlProblem(url);
      if (problem != null) {
        v.error("proxy_url", problem);
      }
    }
    String noProxy = v.string("no_proxy", "");
    boolean fromEnv = v.bool("proxy_from_environment", false);
    Map<String, List<Secret>> connectHeader = new LinkedHashMap<>();
    for (Map.Entry<String, Node.Entry> e : v.entries("proxy_connect_header").entrySet()) {
      Node value = e.getValue().value();
      if (value instanceof Node.ListNode) {
        List<Secret> secrets =
            ((Node.ListNode) value)
                .items().stream()
                    .filter(n -> n instanceof Node.ScalarNode)
                    .map(n -> Secret.of(((Node.ScalarNode) n).text()))
                    .toList();
        connectHeader.put(e.getKey(), secrets);
      } else {
        v.reader()
            .error(
                value.pos(),
                v.path("proxy_connect_header") + "." + e.getKey(),
                "expected a list of strings, got " + value.describe());
      }
    }
    if (fromEnv && !url.isEmpty()) {
      v.error(
          "proxy_url", "if proxy_from_environment is configured, proxy_url must not be configured");
    } else if (fromEnv && !noProxy.isEmpty()) {
      v.error(
          "no_proxy", "if proxy_from_environment is configured, no_proxy must not be configured");
    } else if (url.isEmpty() && !noProxy.isEmpty()) {
      v.error("no_proxy", "if no_proxy is configured, proxy_url must also be configured");
    } else if (!connectHeader.isEmpty() && url.isEmpty() && !fromEnv) {
      v.error(
          "proxy_connect_header",
          "if proxy_connect_header is configured, proxy_url or proxy_from_environment must also be configured");
    }
    ProxyConfig proxy =
        new ProxyConfig(
            url, noProxy, fromEnv, java.util.Collections.unmodifiableMap(connectHeader));
    if (proxy.isSet()) {
      v.warn(
          fromEnv ? "proxy_from_environment" : "proxy_url",
          "proxies are not supported by infermon; it connects directly");
    }
    return proxy;
  }
}
