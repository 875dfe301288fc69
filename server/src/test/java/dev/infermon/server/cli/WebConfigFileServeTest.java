package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.serve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.server.runtime.Infermon;
import dev.infermon.web.testing.SelfSignedPem;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mindrot.jbcrypt.BCrypt;

/**
 * {@code --web.config.file} with a Prometheus web configuration file as its documentation shows one
 * (exporter-toolkit's {@code web-config.yml}: TLS files and bcrypt basic-auth users), checked with
 * the real {@code curl} as an operator would: the right password passes, a wrong one is 401.
 */
class WebConfigFileServeTest {
  static final Path CURL = Path.of("/usr/bin/curl");

  @TempDir Path dir;
  Path cert;
  Path key;

  @BeforeEach
  void certificate() throws Exception {
    assumeTrue(Files.isExecutable(CURL), "the test needs /usr/bin/curl");
    SelfSignedPem pem = SelfSignedPem.create(dir);
    cert = pem.cert();
    key = pem.key();
  }

  /** htpasswd writes {@code $2y$}; jBCrypt writes {@code $2a$} for the same hash. */
  static String htpasswd(String password) {
    return "$2y$" + BCrypt.hashpw(password, BCrypt.gensalt(10)).substring(4);
  }

  @Test
  void tlsAndBasicAuthFromAPrometheusWebConfigFile() throws Exception {
    Path web = dir.resolve("web-config.yml");
    Files.writeString(
        web,
        "# TLS and basic authentication configuration example.\n"
            + "tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n"
            + "http_server_config:\n  headers:\n    X-Content-Type-Options: nosniff\n"
            + "basic_auth_users:\n  alice: "
            + htpasswd("alice-password")
            + "\n  bob: "
            + htpasswd("bob-password")
            + "\n");
    Infermon m = start(web);
    try {
      String url = "https://127.0.0.1:" + m.port() + "/api/v1/query?query=1%2B1&time=1";
      Curl ok = curl("-u", "alice:alice-password", url);
      assertThat(ok.code()).isEqualTo("200");
      assertThat(ok.body()).contains("\"result\":[1,\"2\"]");
      assertThat(ok.headers()).containsIgnoringCase("x-content-type-options: nosniff");
      assertThat(curl("-u", "bob:bob-password", url).code()).isEqualTo("200");
      Curl wrong = curl("-u", "alice:bob-password", url);
      assertThat(wrong.code()).isEqualTo("401");
      assertThat(wrong.headers()).containsIgnoringCase("www-authenticate: Basic");
      assertThat(curl(url).code()).isEqualTo("401");
      assertThat(curl("-u", "alice:alice-password", "http://127.0.0.1:" + m.port() + "/").code())
          .as("plain HTTP to the TLS port")
          .isNotEqualTo("200");
    } finally {
      m.close();
    }
  }

  /** The server's own self-signed certificate serves as the client CA and the client's. */
  @Test
  void requireAndVerifyClientCertRefusesAClientWithoutOne() throws Exception {
    Path web = dir.resolve("web-config.yml");
    Files.writeString(
        web,
        "tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n"
            + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: cert.pem\n"
            + "  min_version: TLS12\n");
    Infermon m = start(web);
    try {
      String url = "https://127.0.0.1:" + m.port() + "/api/v1/query?query=1&time=1";
      assertThat(curl("--cert", cert.toString(), "--key", key.toString(), url).code())
          .isEqualTo("200");
      assertThat(curl(url).code()).as("no client certificate: no TLS session").isEqualTo("000");
    } finally {
      m.close();
    }
  }

  @Test
  void whatInfermonCannotHonourStopsTheStartNamingTheKey() throws Exception {
    Path web = dir.resolve("web-config.yml");
    Files.writeString(
        web,
        "tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n"
            + "  client_allowed_sans: [client.example]\n");
    ServeTestSupport.Started s =
        serve(
            "--web.config.file=" + web,
            "--web.listen-address=127.0.0.1:0",
            "--storage.tsdb.path=" + dir.resolve("data"));
    assertThat(s.infermon()).isNull();
    assertThat(s.exitCode()).isEqualTo(1);
    assertThat(s.err())
        .contains(web + ":4:")
        .contains("tls_server_config.client_allowed_sans: not supported");
  }

  private Infermon start(Path web) {
    ServeTestSupport.Started s =
        serve(
            "--web.config.file=" + web,
            "--web.listen-address=127.0.0.1:0",
            "--storage.tsdb.path=" + dir.resolve("data"));
    assertThat(s.infermon()).as("serve started: " + s.err()).isNotNull();
    return s.infermon();
  }

  record Curl(String code, String headers, String body) {}

  /** curl, trusting the test's self-signed certificate; the status is "000" with no response. */
  private Curl curl(String... args) throws Exception {
    Path headers = Files.createTempFile(dir, "headers", ".txt");
    List<String> cmd = new ArrayList<>();
    cmd.addAll(
        List.of(
            CURL.toString(),
            "-s",
            "--max-time",
            "20",
            "--cacert",
            cert.toString(),
            "-D",
            headers.toString(),
            "-w",
            "\n%{http_code}"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out;
    try (InputStream in = p.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    int nl = out.lastIndexOf('\n');
    return new Curl(out.substring(nl + 1).trim(), Files.readString(headers), out.substring(0, nl));
  }
}
