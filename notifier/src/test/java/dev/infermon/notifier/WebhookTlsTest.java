package dev.infermon.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.infermon.config.ConfigLoader;
import dev.infermon.model.labels.Labels;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An https webhook whose certificate only its {@code tls_config.ca_file} trusts: the configured
 * webhook gets the alerts, the same URL without the CA fails and counts an error. The certificate
 * (for 127.0.0.1) is made by the JDK's {@code keytool} in a temporary directory.
 */
class WebhookTlsTest {
  private static final String PASS = "changeit";

  @TempDir Path dir;
  private HttpsServer server;
  private final List<JsonNode> bodies = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    Path store = dir.resolve("hook.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "hook",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "san=ip:127.0.0.1",
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        store.toString(),
        "-storepass",
        PASS,
        "-keypass",
        PASS);
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "hook",
        "-keystore",
        store.toString(),
        "-storepass",
        PASS,
        "-file",
        dir.resolve("ca.pem").toString());
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, PASS.toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, PASS.toCharArray());
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(ctx));
    server.createContext(
        "/",
        ex -> {
          try (ex) {
            bodies.add(new ObjectMapper().readTree(ex.getRequestBody().readAllBytes()));
            ex.sendResponseHeaders(200, -1);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private void keytool(String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("keytool.log").toFile())
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("keytool " + args[0]).isTrue();
    assertThat(p.exitValue()).as(Files.readString(dir.resolve("keytool.log"))).isZero();
  }

  @Test
  void theConfiguredCaTrustsTheWebhookAndNothingElseDoes() throws Exception {
    String url = "https://127.0.0.1:" + server.getAddress().getPort();
    var alerting =
        ConfigLoader.create()
            .parse(
                "alerting:\n"
                    + "  webhooks:\n"
                    + "    - url: "
                    + url
                    + "/trusted\n"
                    + "      tls_config: {ca_file: '"
                    + dir.resolve("ca.pem")
                    + "'}\n"
                    + "    - url: "
                    + url
                    + "/untrusted\n",
                "infermon.yml")
            .alerting();
    Map<String, Integer> sent = new ConcurrentHashMap<>();
    Map<String, Integer> errors = new ConcurrentHashMap<>();
    NotifierMetrics m =
        new NotifierMetrics() {
          @Override
          public void sent(String endpoint, int alerts) {
            sent.merge(endpoint, alerts, Integer::sum);
          }

          @Override
          public void errors(String endpoint, int alerts) {
            errors.merge(endpoint, alerts, Integer::sum);
          }
        };
    Alert a =
        new Alert(Labels.of("alertname", "A"), Labels.of("cause", "c"), 0, 0, "http://x/graph");
    try (Notifier n = new Notifier(NotifierOptions.DEFAULTS, NotifierConfigs.sets(alerting), m)) {
      n.send(List.of(a));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (sent.size() + errors.size() < 2) {
        assertThat(System.nanoTime()).as("both sends: " + sent + errors).isLessThan(deadline);
        Thread.sleep(20);
      }
    }
    assertThat(sent).containsExactly(Map.entry("webhooks[0] " + url, 1));
    assertThat(errors).containsExactly(Map.entry("webhooks[1] " + url, 1));
    assertThat(bodies).hasSize(1);
    assertThat(bodies.get(0).get(0).at("/annotations/cause").asText()).isEqualTo("c");
  }
}
