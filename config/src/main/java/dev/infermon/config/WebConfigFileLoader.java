package dev.infermon.config;

import dev.infermon.config.app.WebConfigFile;
import dev.infermon.config.app.WebConfigFile.ClientAuth;
import dev.infermon.config.app.WebConfigFile.ServerTls;
import dev.infermon.config.value.Secret;
import dev.infermon.config.yaml.MapView;
import dev.infermon.config.yaml.Node;
import dev.infermon.config.yaml.Pos;
import dev.infermon.config.yaml.Problem;
import dev.infermon.config.yaml.Reader;
import dev.infermon.config.yaml.Section;
import dev.infermon.config.yaml.YamlTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a Prometheus web configuration file ({@code --web.config.file}: the exporter-toolkit's
 * {@code tls_server_config}, {@code http_server_config} and {@code basic_auth_users}), so that a
 * Prometheus deployment's file works unchanged. Keys infermon cannot honour are refused, each
 * naming the key and why, rather than silently ignored: a file that asks for client-certificate SAN
 * checks or rate limiting must not seem to get them. Every problem is reported at once, with file,
 * line and column. Stateless.
 */
public final class WebConfigFileLoader {
  static final Section ROOT =
      Section.of(
          "web_config_file",
          List.of("tls_server_config", "http_server_config", "basic_auth_users", "rate_limit"));
  static final Section TLS =
      Section.of(
          "tls_server_config",
          List.of(
              "cert",
              "key",
              "client_ca",
              "cert_file",
              "key_file",
              "client_auth_type",
              "client_ca_file",
              "client_allowed_sans",
              "min_version",
              "max_version",
              "cipher_suites",
              "prefer_server_cipher_suites",
              "curve_preferences"));
  static final Section HTTP = Section.of("http_server_config", List.of("http2", "headers"));
  static final Section RATE_LIMIT = Section.of("rate_limit", List.of("interval", "burst"));

  /** The response headers the exporter-toolkit allows. */
  static final List<String> HEADERS =
      List.of(
          "Content-Security-Policy",
          "X-Frame-Options",
          "X-Content-Type-Options",
          "X-XSS-Protection",
          "Strict-Transport-Security");

  private static final List<String> VERSIONS = List.of("TLS10", "TLS11", "TLS12", "TLS13");
  private static final Pattern BCRYPT = Pattern.compile("\\$2[abxy]?\\$\\d{2}\\$[./A-Za-z0-9]{53}");

  private WebConfigFileLoader() {}

  /**
   * Loads {@code file}; relative file names in it are resolved against its directory.
   *
   * @throws ConfigException listing every problem, each naming the key
   */
  public static WebConfigFile load(Path file) throws ConfigException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException(
          file.toString(),
          List.of(new Problem(Pos.of(file.toString()), "", "cannot read file: " + e.getMessage())));
    }
    Reader reader = new Reader(file.toAbsolutePath().getParent());
    Node root = YamlTree.parse(text, file.toString(), reader);
    if (!reader.errors().isEmpty()) {
      throw new ConfigException(file.toString(), reader.errors());
    }
    MapView v = reader.view(root, Pos.of(file.toString()), "", ROOT);
    Optional<ServerTls> tls = v.has("tls_server_config") ? Optional.of(tls(v)) : Optional.empty();
    Map<String, String> headers = http(v.map("http_server_config", HTTP));
    Map<String, Secret> users = users(v);
    rateLimit(v.map("rate_limit", RATE_LIMIT));
    v.finish();
    if (!reader.errors().isEmpty()) {
      throw new ConfigException(file.toString(), reader.errors());
    }
    return new WebConfigFile(users, tls, headers);
  }

  private static ServerTls tls(MapView root) {
    MapView t = root.map("tls_server_config", TLS);
    for (String inline : List.of("cert", "key", "client_ca")) {
      if (t.has(inline)) {
        t.error(inline, "inline PEM is not supported; give " + inline + "_file instead");
      }
    }
    String cert = t.file("cert_file");
    String key = t.file("key_file");
    if (cert.isEmpty() || key.isEmpty()) {
      t.error(cert.isEmpty() ? "cert_file" : "key_file", "cert_file and key_file are required");
    }
    ClientAuth auth = clientAuth(t);
    String ca = t.file("client_ca_file");
    if (auth != ClientAuth.NONE && ca.isEmpty()) {
      t.error("client_ca_file", "required when client_auth_type verifies client certificates");
    }
    if (auth == ClientAuth.NONE && !ca.isEmpty()) {
      t.error("client_ca_file", "set, but client_auth_type is NoClientCert");
    }
    if (!t.strings("client_allowed_sans", List.of()).isEmpty()) {
      t.error("client_allowed_sans", "not supported: infermon does not check client SANs");
    }
    if (!t.strings("curve_preferences", List.of()).isEmpty()) {
      t.error("curve_preferences", "not supported: the JDK's curve order is used");
    }
    int min = version(t, "min_version", "TLS12");
    int max = version(t, "max_version", "TLS13");
    if (min > max) {
      t.error("min_version", "is above max_version");
    }
    List<String> protocols = new ArrayList<>();
    for (int i = min; i <= max; i++) {
      protocols.add(i == 0 ? "TLSv1" : "TLSv1." + i);
    }
    List<String> ciphers = t.strings("cipher_suites", List.of());
    boolean prefer = t.bool("prefer_server_cipher_suites", true);
    t.finish();
    return new ServerTls(cert, key, auth, ca, protocols, ciphers, prefer);
  }

  private static ClientAuth clientAuth(MapView t) {
    String s = t.string("client_auth_type", "NoClientCert");
    switch (s) {
      case "NoClientCert":
        return ClientAuth.NONE;
      case "VerifyClientCertIfGiven":
        return ClientAuth.VERIFY_IF_GIVEN;
      case "RequireAndVerifyClientCert":
        return ClientAuth.REQUIRE_AND_VERIFY;
      case "RequestClientCert":
      case "RequireAnyClientCert":
        t.error(
            "client_auth_type",
            Checks.quote(s)
                + " accepts certificates nobody verified and is not supported; use"
                + " RequireAndVerifyClientCert or VerifyClientCertIfGiven");
        return ClientAuth.NONE;
      default:
        t.error(
            "client_auth_type",
            "unknown client_auth_type "
                + Checks.quote(s)
                + " (NoClientCert, VerifyClientCertIfGiven or RequireAndVerifyClientCert)");
        return ClientAuth.NONE;
    }
  }

  /** The minor version of a {@code TLS1x} setting: 0 to 3. */
  private static int version(MapView t, String key, String def) {
    String s = t.string(key, def);
    int i = VERSIONS.indexOf(s.toUpperCase(Locale.ROOT));
    if (i < 0) {
      t.error(key, "unknown TLS version " + Checks.quote(s) + " (TLS10, TLS11, TLS12 or TLS13)");
      return key.equals("min_version") ? 2 : 3;
    }
    return i;
  }

  private static Map<String, String> http(MapView h) {
    // HTTP/2 (default on in Prometheus) is not served: HTTP/1.1 clients are every client.
    h.bool("http2", true);
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : h.stringMap("headers").entrySet()) {
      String name = canonical(e.getKey());
      if (name == null) {
        h.error(
            "headers",
            "header "
                + Checks.quote(e.getKey())
                + " is not one that may be set ("
                + String.join(", ", HEADERS)
                + ")");
      } else if (!e.getValue().isEmpty()) {
        out.put(name, e.getValue());
      }
    }
    h.finish();
    return out;
  }

  private static String canonical(String header) {
    for (String h : HEADERS) {
      if (h.equalsIgnoreCase(header)) {
        return h;
      }
    }
    return null;
  }

  private static Map<String, Secret> users(MapView v) {
    Map<String, Secret> users = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : v.stringMap("basic_auth_users").entrySet()) {
      if (!BCRYPT.matcher(e.getValue()).matches()) {
        v.error(
            "basic_auth_users",
            "password of user " + Checks.quote(e.getKey()) + " must be a bcrypt hash ($2y$...)");
      } else {
        users.put(e.getKey(), Secret.of(e.getValue()));
      }
    }
    return users;
  }

  private static void rateLimit(MapView r) {
    if (r.has("interval") || r.has("burst")) {
      java.time.Duration interval = r.duration("interval", java.time.Duration.ZERO);
      r.intCount("burst", 0);
      if (!interval.isZero()) {
        r.error("interval", "rate limiting is not supported; set interval to 0 or leave it out");
      }
    }
    r.finish();
  }
}
