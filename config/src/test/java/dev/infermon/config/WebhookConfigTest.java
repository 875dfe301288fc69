package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.infermon.config.remote.WebhookConfig;
import dev.infermon.config.scrape.Authorization;
import dev.infermon.config.yaml.Problem;
import dev.infermon.config.yaml.YamlPrinter;
import dev.infermon.model.relabel.Action;
import dev.infermon.model.relabel.RelabelConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code alerting.webhooks}: a URL, a timeout, alert relabeling and the HTTP client settings an
 * Alertmanager takes; bad values are problems naming the key, the value, the line and the column.
 */
class WebhookConfigTest {
  @Test
  void aWebhookTakesItsUrlTimeoutRelabelingAndHttpSettings() throws ConfigException {
    Config c =
        Fixtures.parse(
            """
            alerting:
              webhooks:
                - url: https://hooks.example.com/infermon?team=llm
                  timeout: 3s
                  authorization:
                    credentials: s3cret
                  tls_config:
                    insecure_skip_verify: true
                  http_headers:
                    X-Team: {values: [llm]}
                  alert_relabel_configs:
                    - source_labels: [severity]
                      regex: page
                      action: keep
                - url: http://127.0.0.1:8080/hook
            """);
    List<WebhookConfig> hooks = c.alerting().webhooks();
    assertThat(hooks).hasSize(2);
    WebhookConfig a = hooks.get(0);
    assertThat(a.url().uri().toString()).isEqualTo("https://hooks.example.com/infermon?team=llm");
    assertThat(a.timeout()).isEqualTo(Duration.ofSeconds(3));
    Authorization authz = a.httpClient().authorization().orElseThrow();
    assertThat(authz.type()).isEqualTo(Authorization.BEARER);
    assertThat(authz.credentials().reveal()).isEqualTo("s3cret");
    assertThat(a.httpClient().tlsConfig().insecureSkipVerify()).isTrue();
    assertThat(a.httpClient().httpHeaders().get("X-Team").values()).containsExactly("llm");
    assertThat(a.alertRelabelConfigs())
        .extracting(RelabelConfig::action)
        .containsExactly(Action.KEEP);
    WebhookConfig b = hooks.get(1);
    assertThat(b.timeout()).as("Alertmanager's default").isEqualTo(Duration.ofSeconds(10));
    assertThat(b.httpClient().authorization()).isEmpty();
    assertThat(b.alertRelabelConfigs()).isEmpty();
    assertThat(c.alerting().alertmanagers()).isEmpty();
  }

  @Test
  void aPrintedWebhookReadsBackTheSame() throws ConfigException {
    Config c =
        Fixtures.parse(
            """
            alerting:
              webhooks:
                - url: http://127.0.0.1:8080/hook
                  timeout: 1m30s
                  basic_auth: {username: u, password: p}
            """);
    Config back = ConfigLoader.create().parse(YamlPrinter.print(c, false), "printed.yml");
    assertThat(back.alerting()).isEqualTo(c.alerting());
  }

  @Test
  void notAUrl() {
    assertProblems(
        """
        alerting:
          webhooks:
            - url: "hooks example com"
        """,
        "infermon.yml:3:12: alerting.webhooks[0].url: invalid URL \"hooks example com\": Illegal"
            + " character in path");
  }

  @Test
  void aSchemeOtherThanHttp() {
    assertProblems(
        """
        alerting:
          webhooks:
            - url: ftp://hooks.example.com/x
        """,
        "infermon.yml:3:12: alerting.webhooks[0].url: invalid URL \"ftp://hooks.example.com/x\":"
            + " scheme must be http or https");
  }

  @Test
  void aMissingUrl() {
    assertProblems(
        """
        alerting:
          webhooks:
            - timeout: 5s
        """,
        "infermon.yml:3:7: alerting.webhooks[0]: url for webhook is empty");
  }

  @Test
  void aNegativeOrZeroTimeout() {
    assertProblems(
        """
        alerting:
          webhooks:
            - url: http://a.example.com/
              timeout: -5s
            - url: http://b.example.com/
              timeout: 0s
        """,
        "infermon.yml:4:16: alerting.webhooks[0].timeout: not a valid duration string: \"-5s\"",
        "infermon.yml:6:16: alerting.webhooks[1].timeout: webhook timeout must be positive, got"
            + " 0s");
  }

  @Test
  void aMisspeltKeyAndConflictingAuthorization() {
    assertProblems(
        """
        alerting:
          webhooks:
            - url: http://a.example.com/
              timout: 5s
              basic_auth: {username: u, password: p}
              bearer_token: t
        """,
        "infermon.yml:6:21: alerting.webhooks[0].bearer_token: at most one of basic_auth, oauth2,"
            + " bearer_token & bearer_token_file must be configured",
        "infermon.yml:4:7: alerting.webhooks[0].timout: unknown key; did you mean timeout?");
  }

  @Test
  void anEmptyEntry() {
    assertProblems(
        """
        alerting:
          webhooks:
            -
        """,
        "infermon.yml:3:6: alerting.webhooks[0]: empty or null webhook config");
  }

  @Test
  void webhooksAreRefusedInAgentMode() {
    assertProblems(
        """
        storage: {mode: agent}
        alerting:
          webhooks:
            - url: http://a.example.com/
        """,
        "infermon.yml:3:3: alerting: field alerting is not allowed in agent mode");
  }

  private static void assertProblems(String yaml, String... problems) {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> Fixtures.parse(yaml));
    assertThat(e).as("no problem reported for:%n%s", yaml).isNotNull();
    assertThat(e.problems()).extracting(Problem::toString).containsExactly(problems);
  }
}
