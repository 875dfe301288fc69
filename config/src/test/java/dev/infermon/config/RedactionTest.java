package dev.infermon.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Secrets never appear in the printed configuration or in toString. */
class RedactionTest {
  private static final String YAML =
      """
      scrape_configs:
      - job_name: a
        basic_auth: {username: scraper, password: pw-basic-123}
        tls_config: {cert: CERTDATA, key: key-pem-456}
      - job_name: b
        bearer_token: token-bearer-789
      - job_name: c
        oauth2: {client_id: id, client_secret: oauth-secret-000, token_url: "http://t/token"}
      alerting:
        webhooks:
        - url: https://hooks.example.com/services/T0/B0/hook-token-555
      remote_write:
      - url: http://user:url-password-111@mimir/api/v1/push
        authorization: {credentials: authz-credentials-222}
      storage:
        remote:
          query_url: http://prom:9090
          basic_auth: {username: u, password: remote-pw-333}
      web:
        auth:
          bearer_tokens: [web-token-444]
          basic_users:
            admin: sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
      """;

  private static final String[] SECRETS = {
    "pw-basic-123",
    "key-pem-456",
    "token-bearer-789",
    "oauth-secret-000",
    "url-password-111",
    "authz-credentials-222",
    "remote-pw-333",
    "web-token-444",
    "hook-token-555",
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
  };

  @Test
  void redactedYamlHidesEverySecretButKeepsTheRest() throws ConfigException {
    Config c = Fixtures.parse(YAML);
    String printed = c.toRedactedYaml();
    assertThat(printed).doesNotContain(SECRETS);
    assertThat(printed).contains("<secret>", "username: scraper", "CERTDATA", "user:xxxxx@mimir");
    assertThat(printed).contains("job_name: a", "client_id: id");
  }

  @Test
  void toStringHidesEverySecret() throws ConfigException {
    assertThat(Fixtures.parse(YAML).toString()).doesNotContain(SECRETS).contains("<secret>");
  }

  @Test
  void theSecretsAreStillThereForTheCodeThatNeedsThem() throws ConfigException {
    Config c = Fixtures.parse(YAML);
    assertThat(
            c.scrapeConfigs()
                .get(1)
                .httpClient()
                .authorization()
                .orElseThrow()
                .credentials()
                .reveal())
        .isEqualTo("token-bearer-789");
    assertThat(c.web().auth().bearerTokens().get(0).matches("web-token-444")).isTrue();
    assertThat(c.web().auth().bearerTokens().get(0).matches("web-token-445")).isFalse();
    assertThat(c.alerting().webhooks().get(0).url().uri().getPath()).endsWith("/hook-token-555");
  }
}
