package dev.infermon.config.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.config.ConfigException;
import dev.infermon.config.ConfigLoader;
import dev.infermon.config.scrape.HttpClientConfig;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The headers an {@code HttpClientConfig} adds to a request, from the YAML a user writes. */
class RequestAuthTest {
  @TempDir Path dir;

  private static HttpClientConfig http(String scrapeConfigLines) {
    String yaml = "scrape_configs:\n  - job_name: j\n" + scrapeConfigLines.indent(4);
    try {
      return ConfigLoader.create().parse(yaml, "t.yml").scrapeConfigs().get(0).httpClient();
    } catch (ConfigException e) {
      throw new AssertionError(e);
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("", Map.of()),
        Arguments.of(
            "basic_auth: {username: alice, password: s3cret}",
            Map.of("Authorization", "Basic YWxpY2U6czNjcmV0")),
        Arguments.of("authorization: {credentials: tok}", Map.of("Authorization", "Bearer tok")),
        Arguments.of(
            "authorization: {type: Token, credentials: tok}", Map.of("Authorization", "Token tok")),
        Arguments.of("authorization: {type: Bearer}", Map.of()),
        Arguments.of(
            "http_headers: {X-Scope-OrgID: {values: [tenant-1]}, X-Key: {secrets: [k]}}",
            Map.of("X-Scope-OrgID", "tenant-1", "X-Key", "k")));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("cases")
  void headersFromConfig(String yaml, Map<String, String> expected) {
    assertThat(new RequestAuth(http(yaml)).get()).isEqualTo(expected);
  }

  @Test
  void credentialFilesAreReadAtEachRequest() throws Exception {
    Path token = dir.resolve("token");
    Files.writeString(token, "first\n");
    RequestAuth auth = new RequestAuth(http("authorization: {credentials_file: " + token + "}"));
    assertThat(auth.get()).containsEntry("Authorization", "Bearer first");

    Files.writeString(token, "rotated\n");
    assertThat(auth.get()).containsEntry("Authorization", "Bearer rotated");
  }

  @Test
  void missingCredentialFileNamesIt() {
    Path gone = dir.resolve("gone");
    RequestAuth auth = new RequestAuth(http("authorization: {credentials_file: " + gone + "}"));
    assertThatThrownBy(auth::get)
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(gone.toString());
  }

  @Test
  void printsNoSecret() {
    RequestAuth auth = new RequestAuth(http("basic_auth: {username: u, password: hunter2}"));
    assertThat(auth.toString()).doesNotContain("hunter2");
  }
}
