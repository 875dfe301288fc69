package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.serve;
import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.server.runtime.Infermon;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At {@code --log.level=debug} infermon logs no credential: not the {@code Authorization} and
 * {@code Cookie} headers of requests it serves, not the ones it sends when scraping, not URL user
 * information. What the process writes to standard error is captured and searched.
 */
class LogCredentialsTest {
  static final String BEARER = "incoming-bearer-4c1d";
  static final String BASIC_PASSWORD = "incoming-basic-9f2e";
  static final String COOKIE = "incoming-cookie-77aa";
  static final String SCRAPE_PASSWORD = "scrape-password-31b0";
  static final String SCRAPE_TOKEN = "scrape-token-a5c8";
  static final String URL_PASSWORD = "url-password-e6d4";

  @TempDir Path dir;

  @Test
  void debugLoggingShowsNoCredentials() throws Exception {
    // The bcrypt hash of BASIC_PASSWORD is computed by the web module's own tests; here the
    // token alone opens the API, and the Basic header is a wrong one that must not be logged.
    Path cfg = dir.resolve("infermon.yml");
    Files.writeString(
        cfg,
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 500ms\n"
            + "web:\n  auth:\n    bearer_tokens: ["
            + BEARER
            + "]\n"
            + "scrape_configs:\n"
            + "  - job_name: basic\n    basic_auth:\n      username: u\n      password: "
            + SCRAPE_PASSWORD
            + "\n    static_configs:\n      - targets: ['127.0.0.1:9']\n"
            + "  - job_name: token\n    authorization:\n      credentials: "
            + SCRAPE_TOKEN
            + "\n    static_configs:\n      - targets: ['127.0.0.1:9']\n");
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    Infermon m = null;
    try {
      m =
          serve(
                  "--config.file=" + cfg,
                  "--web.listen-address=127.0.0.1:0",
                  "--storage.tsdb.path=" + dir.resolve("data"),
                  "--log.level=debug")
              .infermon();
      assertThat(m).as("serve started").isNotNull();
      String base = "http://127.0.0.1:" + m.port();
      String basic =
          Base64.getEncoder()
              .encodeToString(("admin:" + BASIC_PASSWORD).getBytes(StandardCharsets.UTF_8));
      for (List<String> headers :
          List.of(
              List.of("Authorization", "Bearer " + BEARER, "Cookie", "session=" + COOKIE),
              List.of("Authorization", "Basic " + basic),
              List.of("Authorization", "Bearer wrong-" + BEARER))) {
        HttpRequest.Builder b =
            HttpRequest.newBuilder(URI.create(base + "/api/v1/query?query=up"))
                .timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.size(); i += 2) {
          b.header(headers.get(i), headers.get(i + 1));
        }
        ServeTestSupport.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
      }
      // A URL with user information, as a client misconfigured with one might send.
      ServeTestSupport.HTTP.send(
          HttpRequest.newBuilder(
                  URI.create(base + "/api/v1/query?query=up&next=http://u:" + URL_PASSWORD + "@h/"))
              .header("Authorization", "Bearer " + BEARER)
              .build(),
          HttpResponse.BodyHandlers.ofString());
      // Two scrape intervals: both jobs send their credentials (to a closed port).
      Thread.sleep(2_500);
      assertThat(LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME).isDebugEnabled())
          .as("logging at debug")
          .isTrue();
      // A message and an exception of infermon's own that quote credentials are masked.
      Logger own = LoggerFactory.getLogger("dev.infermon.server.cli.LogCredentialsTest");
      own.debug(
          "forwarding with Authorization: Bearer {}",
          BEARER,
          new IllegalStateException("refused by http://u:" + URL_PASSWORD + "@remote/write"));
    } finally {
      if (m != null) {
        m.close();
      }
      System.setErr(original);
      ServeCommand.setLogLevel("info");
    }
    String log = captured.toString(StandardCharsets.UTF_8);
    assertThat(log)
        .contains("forwarding with Authorization: <secret>")
        .contains("refused by http://u:<secret>@remote/write");
    String basicEncoded =
        Base64.getEncoder()
            .encodeToString(("admin:" + BASIC_PASSWORD).getBytes(StandardCharsets.UTF_8));
    String scrapeBasic =
        Base64.getEncoder()
            .encodeToString(("u:" + SCRAPE_PASSWORD).getBytes(StandardCharsets.UTF_8));
    for (String secret :
        List.of(
            BEARER,
            BASIC_PASSWORD,
            basicEncoded,
            COOKIE,
            SCRAPE_PASSWORD,
            scrapeBasic,
            SCRAPE_TOKEN,
            URL_PASSWORD)) {
      assertThat(log).as("the log shows no credential").doesNotContain(secret);
    }
  }
}
