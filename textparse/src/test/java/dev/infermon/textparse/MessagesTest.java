package dev.infermon.textparse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MessagesTest {
  @Test
  void quotesAsGoDoes() {
    assertThat(Messages.quote("a\"b\\c\n\t\r\u0001\u007fé😀"))
        .isEqualTo("\"a\\\"b\\\\c\\n\\t\\r\\x01\\x7fé😀\"");
  }

  @Test
  void cutsAfterFortyEightCodePoints() {
    String long50 = "😀".repeat(50);
    assertThat(Messages.quote(long50)).isEqualTo("\"" + "😀".repeat(48) + "\"...");
    assertThat(Messages.quote("x".repeat(48))).isEqualTo("\"" + "x".repeat(48) + "\"");
  }

  @Test
  void quotesABytesRange() {
    byte[] b = "metric{a=\"1\"} 2\n".getBytes(StandardCharsets.UTF_8);
    assertThat(Messages.quote(b, 6, 13)).isEqualTo("\"{a=\\\"1\\\"}\"");
  }
}
