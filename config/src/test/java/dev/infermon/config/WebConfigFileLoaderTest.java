package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.infermon.config.app.WebConfigFile;
import dev.infermon.config.app.WebConfigFile.ClientAuth;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Prometheus's web configuration file, as its documentation shows it, and what is refused. */
class WebConfigFileLoaderTest {
  static final String HASH = "$2y$10$mDwo.lAisC94iLAyP81MCesa29IzH37oigHC/42V2pdJlUprsJPze";

  @TempDir Path dir;

  /** exporter-toolkit's docs/web-config.yml, with headers and client certificates added. */
  @Test
  void readsTheDocumentedExample() throws Exception {
    Path f =
        write(
            "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
                + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n"
                + "  min_version: TLS13\n"
                + "  cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]\n"
                + "http_server_config:\n  headers:\n    X-Frame-Options: deny\n"
                + "    Strict-Transport-Security: max-age=31536000\n"
                + "basic_auth_users:\n  alice: "
                + HASH
                + "\n  bob: $2y$10$hLqFl9jSjoAAy95Z/zw8Ye8wkdMBM8c5Bn1ptYqP/AXyV0.oy0S8m\n"
                + "rate_limit:\n  interval: 0s\n  burst: 20\n");
    WebConfigFile w = WebConfigFileLoader.load(f);
    assertThat(w.basicUsers()).containsOnlyKeys("alice", "bob");
    assertThat(w.basicUsers().get("alice").reveal()).isEqualTo(HASH);
    WebConfigFile.ServerTls tls = w.tls().orElseThrow();
    assertThat(tls.certFile()).isEqualTo(dir.resolve("server.crt").toString());
    assertThat(tls.keyFile()).isEqualTo(dir.resolve("server.key").toString());
    assertThat(tls.clientAuth()).isEqualTo(ClientAuth.REQUIRE_AND_VERIFY);
    assertThat(tls.clientCaFile()).isEqualTo(dir.resolve("ca.crt").toString());
    assertThat(tls.protocols()).containsExactly("TLSv1.3");
    assertThat(tls.cipherSuites()).containsExactly("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
    assertThat(w.headers())
        .containsEntry("X-Frame-Options", "deny")
        .containsEntry("Strict-Transport-Security", "max-age=31536000");
  }

  @Test
  void defaultsAreTls12ToTls13AndNoClientCertificates() throws Exception {
    WebConfigFile w =
        WebConfigFileLoader.load(write("tls_server_config:\n  cert_file: a\n  key_file: b\n"));
    assertThat(w.tls().orElseThrow().protocols()).containsExactly("TLSv1.2", "TLSv1.3");
    assertThat(w.tls().orElseThrow().clientAuth()).isEqualTo(ClientAuth.NONE);
    assertThat(w.basicUsers()).isEmpty();
    assertThat(WebConfigFileLoader.load(write("basic_auth_users:\n  a: " + HASH + "\n")).tls())
        .isEmpty();
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "tls_server_config:\\n  cert_file: a\\n  key_file: b\\n  client_allowed_sans: [x]\\n"
            + " | tls_server_config.client_allowed_sans | not supported: infermon does not check"
            + " client SANs",
        "tls_server_config:\\n  cert_file: a\\n  key_file: b\\n  client_auth_type: RequireAnyClientCert\\n"
            + " | tls_server_config.client_auth_type | \"RequireAnyClientCert\" accepts"
            + " certificates nobody verified",
        "tls_server_config:\\n  cert_file: a\\n  key_file: b\\n  client_auth_type: RequireAndVerifyClientCert\\n"
            + " | tls_server_config.client_ca_file | required when client_auth_type verifies",
        "tls_server_config:\\n  cert: PEM\\n  key_file: b\\n | tls_server_config.cert | inline PEM"
            + " is not supported",
        "tls_server_config:\\n  cert_file: a\\n | tls_server_config.key_file | cert_file and"
            + " key_file are required",
        "tls_server_config:\\n  cert_file: a\\n  key_file: b\\n  min_version: SSL3\\n"
            + " | tls_server_config.min_version | unknown TLS version \"SSL3\"",
        "tls_server_config:\\n  cert_file: a\\n  key_file: b\\n  curve_preferences: [X25519]\\n"
            + " | tls_server_config.curve_preferences | not supported",
        "http_server_config:\\n  headers:\\n    X-Powered-By: me\\n"
            + " | http_server_config.headers | header \"X-Powered-By\" is not one that may be set",
        "basic_auth_users:\\n  alice: plain-text\\n | basic_auth_users | password of user"
            + " \"alice\" must be a bcrypt hash",
        "rate_limit:\\n  interval: 1s\\n  burst: 20\\n | rate_limit.interval | rate limiting is not"
            + " supported",
        "tls_server_confg:\\n  cert_file: a\\n | tls_server_confg | unknown key; did you mean"
            + " tls_server_config?",
      })
  void refusesWhatInfermonCannotHonourNamingTheKey(String yaml, String path, String message)
      throws Exception {
    Path f = write(yaml.replace("\\n", "\n"));
    ConfigException e =
        catchThrowableOfType(ConfigException.class, () -> WebConfigFileLoader.load(f));
    assertThat(e).as("refused").isNotNull();
    assertThat(e.problems())
        .anySatisfy(
            p -> {
              assertThat(p.path()).isEqualTo(path);
              assertThat(p.message()).startsWith(message);
              assertThat(p.pos().line()).isPositive();
            });
    assertThat(e.getMessage()).contains(f.toString());
  }

  private Path write(String yaml) throws Exception {
    Path f = dir.resolve("web-config.yml");
    Files.writeString(f, yaml);
    return f;
  }
}
