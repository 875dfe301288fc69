package dev.infermon.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.config.app.WebConfig;
import dev.infermon.config.value.Secret;
import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.web.testing.SelfSignedPem;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mindrot.jbcrypt.BCrypt;

class AuthTlsTest {
  @TempDir Path dir;

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static int status(TestServer s, String path, String authorization) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(s.uri(path)).timeout(Duration.ofSeconds(10));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return s.client.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  @Test
  void bearerAndBasicAuthentication() throws Exception {
    String sha =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest("s3cret".getBytes(StandardCharsets.UTF_8)));
    String bcrypt = BCrypt.hashpw("hunter2", BCrypt.gensalt(4)).replace("$2a$", "$2y$");
    WebConfig.Auth auth =
        new WebConfig.Auth(
            List.of(Secret.of("grafana-token")),
            Map.of("admin", Secret.of(bcrypt), "ops", Secret.of("sha256:" + sha)));
    try (TestServer s = TestServer.start(dir, EngineOptions.DEFAULTS, o -> o.withAuth(auth))) {
      String q = "/api/v1/query?query=1";
      assertThat(status(s, q, null)).isEqualTo(401);
      assertThat(status(s, q, "Bearer wrong")).isEqualTo(401);
      assertThat(status(s, q, "Bearer grafana-token")).isEqualTo(200);
      assertThat(status(s, q, basic("admin", "hunter2"))).isEqualTo(200);
      assertThat(status(s, q, basic("admin", "hunter2"))).as("cached").isEqualTo(200);
      assertThat(status(s, q, basic("admin", "wrong"))).isEqualTo(401);
      assertThat(status(s, q, basic("ops", "s3cret"))).isEqualTo(200);
      assertThat(status(s, q, basic("nobody", "s3cret"))).isEqualTo(401);
      assertThat(status(s, "/metrics", null)).isEqualTo(401);
      // probes need no credentials
      assertThat(status(s, "/-/healthy", null)).isEqualTo(200);
      assertThat(status(s, "/-/ready", null)).isEqualTo(200);
      HttpResponse<String> challenge = s.get(q);
      assertThat(challenge.headers().firstValue("WWW-Authenticate"))
          .contains("Basic realm=\"infermon\"");

      // A reload: the removed token and user are refused from the next request on, even the
      // user whose password check was cached.
      s.server.reconfigure(
          WebOptions.defaults("127.0.0.1:0")
              .withAuth(
                  new WebConfig.Auth(
                      List.of(Secret.of("rotated-token")),
                      Map.of("ops", Secret.of("sha256:" + sha)))));
      assertThat(status(s, q, "Bearer grafana-token")).isEqualTo(401);
      assertThat(status(s, q, "Bearer rotated-token")).isEqualTo(200);
      assertThat(status(s, q, basic("admin", "hunter2"))).isEqualTo(401);
      assertThat(status(s, q, basic("ops", "s3cret"))).isEqualTo(200);
      s.server.reconfigure(WebOptions.defaults("127.0.0.1:0"));
      assertThat(status(s, q, null)).as("auth removed").isEqualTo(200);
    }
  }

  @Test
  void servesHttpsFromPemFiles() throws Exception {
    SelfSignedPem pem = SelfSignedPem.create(dir);
    try (TestServer s =
        TestServer.start(
            dir,
            EngineOptions.DEFAULTS,
            o -> o.withTls(Optional.of(new WebOptions.TlsFiles(pem.cert(), pem.key()))))) {
      assertThat(s.server.scheme()).isEqualTo("https");
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry(
          "server",
          dev.infermon.web.tls.PemKeyStore.load(pem.cert(), pem.key()).getCertificate("server"));
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      HttpClient https =
          HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
      HttpResponse<String> r =
          https.send(
              HttpRequest.newBuilder(
                      URI.create(
                          "https://127.0.0.1:"
                              + s.server.port()
                              + "/api/v1/query?query=1%2B1&time=1"))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).contains("\"result\":[1,\"2\"]");
    }
  }
}
