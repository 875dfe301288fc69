package dev.infermon.config.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Prometheus's duration and size syntax. */
class ValuesTest {
  @ParameterizedTest(name = "{0} = {1} ms")
  @CsvSource({
    "0, 0",
    "0s, 0",
    "15s, 15000",
    "1m30s, 90000",
    "1h, 3600000",
    "1d, 86400000",
    "2w, 1209600000",
    "1y, 31536000000",
    "1y2w3d4h5m6s7ms, 33019506007",
    "250ms, 250"
  })
  void parsesDurations(String text, long millis) {
    assertThat(PromDuration.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "''|empty duration string",
        "1|not a valid duration string: \"1\"",
        "1m1h|not a valid duration string: \"1m1h\"",
        "1s1s|not a valid duration string: \"1s1s\"",
        "-1s|not a valid duration string: \"-1s\"",
        "1.5s|unknown unit \".\" in duration \"1.5s\"",
        "5mins|unknown unit \"mins\" in duration \"5mins\"",
        "300000y|duration out of range"
      })
  void rejectsInvalidDurations(String text, String message) {
    assertThatThrownBy(() -> PromDuration.parse(text)).hasMessage(message);
  }

  @ParameterizedTest(name = "{0} ms -> {1}")
  @CsvSource({
    "0, 0s",
    "90000, 1m30s",
    "86400000, 1d",
    "604800000, 1w",
    "1001, 1s1ms",
    // Years and weeks only when exact, as prometheus/common prints them.
    "7776000000, 90d",
    "31536000000, 1y",
    "32140800000, 372d",
    "1209600000, 2w",
    "1213200000, 14d1h"
  })
  void formatsDurations(long millis, String text) {
    assertThat(PromDuration.format(Duration.ofMillis(millis))).isEqualTo(text);
  }

  @Property(tries = 300)
  void formattedDurationsParseBack(@ForAll @LongRange(min = 0, max = 9_000_000_000_000L) long ms) {
    Duration d = Duration.ofMillis(ms);
    assertThat(PromDuration.parse(PromDuration.format(d))).isEqualTo(d);
  }

  @ParameterizedTest(name = "{0} = {1} B")
  @CsvSource({
    "0, 0",
    "512, 512",
    "100B, 100",
    "1KB, 1024",
    "1KiB, 1024",
    "10MB, 10485760",
    "2GiB, 2147483648",
    "1TB, 1099511627776"
  })
  void parsesSizes(String text, long bytes) {
    assertThat(ByteSize.parse(text).bytes()).isEqualTo(bytes);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"10XB", "MB", "-1MB", "1.5GB", "10 MB"})
  void rejectsInvalidSizes(String text) {
    assertThatThrownBy(() -> ByteSize.parse(text))
        .hasMessageStartingWith("invalid size \"" + text + "\"");
  }

  @Property(tries = 300)
  void formattedSizesParseBack(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE / 2) long bytes) {
    ByteSize s = ByteSize.ofBytes(bytes);
    assertThat(ByteSize.parse(s.format())).isEqualTo(s);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"hunter2", "a"})
  void secretsPrintRedacted(String value) {
    Secret s = Secret.of(value);
    assertThat(s.toString()).isEqualTo("<secret>");
    assertThat(s.reveal()).isEqualTo(value);
    assertThat(Secret.of("")).isSameAs(Secret.NONE);
  }
}
