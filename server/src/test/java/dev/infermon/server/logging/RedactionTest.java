package dev.infermon.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What log text looks like once masked: the secret gone, the rest as it was. */
class RedactionTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "Authorization: Bearer abc.def-123 | Authorization: <secret>",
        "parsedHeader(authorization: Basic dTpwYXNz) next"
            + " | parsedHeader(authorization: <secret>) next",
        "FIELD(Authorization: Bearer x1) valueString=[Bearer abcdef12]"
            + " | FIELD(Authorization: <secret>) valueString=[Bearer <secret>]",
        "valueString=[Bearer s3cr3t-token] | valueString=[Bearer <secret>]",
        "Proxy-Authorization=Negotiate YWJj | Proxy-Authorization=<secret>",
        "Cookie: session=xyz; other=1 | Cookie: <secret>",
        "Set-Cookie: id=42 | Set-Cookie: <secret>",
        "remote write to https://user:p4ss@example.org/api failed"
            + " | remote write to https://user:<secret>@example.org/api failed",
        "GET /api/v1/query?query=up&token=abc123&x=1 | GET /api/v1/query?query=up&token=<secret>&x=1",
        "password=hunter2 rejected | password=<secret> rejected",
        "scrape of http://127.0.0.1:9/metrics failed: connection refused"
            + " | scrape of http://127.0.0.1:9/metrics failed: connection refused",
        "Rule evaluates again: group=g rule=first | Rule evaluates again: group=g rule=first",
        "basic auth users: 2 | basic auth users: 2",
        "Basic authentication failed for bearer tokens | Basic authentication failed for bearer tokens",
      })
  void masksCredentialsAndNothingElse(String text, String masked) {
    assertThat(Redaction.redact(text)).isEqualTo(masked);
  }
}
