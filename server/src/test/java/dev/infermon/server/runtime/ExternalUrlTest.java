package dev.infermon.server.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code --web.external-url}: what links start with, and the values refused (naming them). */
class ExternalUrlTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # flag                                    | links start with
          https://infermon.example.com              | https://infermon.example.com
          https://infermon.example.com/             | https://infermon.example.com
          https://proxy.example.com/infermon/       | https://proxy.example.com/infermon
          http://10.0.0.7:9090/a/b//                | http://10.0.0.7:9090/a/b
          HTTPS://Infermon.example.com:8443/x       | HTTPS://Infermon.example.com:8443/x
          """)
  void linksStartWithTheUrlWithoutItsTrailingSlash(String flag, String links) {
    assertThat(ServeSettings.externalUrl(flag)).isEqualTo(links);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # flag                                    | the error says
          infermon.example.com:9090                 | must be an absolute http:// or https:// URL with a host
          /infermon                                 | must be an absolute http:// or https:// URL with a host
          ftp://infermon.example.com                | must be an absolute http:// or https:// URL with a host
          https:///nohost                           | must be an absolute http:// or https:// URL with a host
          https://infermon.example.com/?a=b         | must not have a query or a fragment
          https://infermon.example.com/#top         | must not have a query or a fragment
          https://infer mon.example.com             | must be a URL
          """)
  void aUrlLinksCannotStartWithIsRefusedNamingIt(String flag, String error) {
    assertThatThrownBy(() -> ServeSettings.externalUrl(flag))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--web.external-url " + error)
        .hasMessageContaining("\"" + flag + "\"");
  }
}
