package dev.infermon.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScrapeTimestampsTest {

  /** Interval, the wall times scrapes start at, and the stamps they must get. */
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "on time", 5000, new long[] {1000, 6000, 11000}, new long[] {1000, 6000, 11000}),
        Arguments.of(
            "jitter within 2 ms snaps to the grid",
            5000,
            new long[] {1000, 6001, 11002, 16000},
            new long[] {1000, 6000, 11000, 16000}),
        Arguments.of(
            "a scrape up to 2 ms early snaps too (the first one started late)",
            5000,
            new long[] {1000, 5999, 10998, 16000},
            new long[] {1000, 6000, 11000, 16000}),
        Arguments.of(
            "3 ms early keeps the wall time, the grid stays",
            5000,
            new long[] {1000, 5997, 11000},
            new long[] {1000, 5997, 11000}),
        Arguments.of(
            "jitter beyond 2 ms keeps the wall time, the grid stays",
            5000,
            new long[] {1000, 6003, 11001},
            new long[] {1000, 6003, 11000}),
        Arguments.of(
            "a skipped tick moves the grid by whole intervals",
            5000,
            new long[] {1000, 11001, 16002},
            new long[] {1000, 11000, 16000}),
        Arguments.of(
            "a late tick and the catch-up right after never share a stamp",
            5000,
            new long[] {1000, 11001, 11002, 16000},
            new long[] {1000, 11000, 11002, 16000}),
        Arguments.of(
            "a clock stepped back starts a new grid",
            5000,
            new long[] {10000, 15000, 4000, 9001},
            new long[] {10000, 15000, 4000, 9000}),
        Arguments.of(
            "200 ms or less is never aligned, as in Prometheus",
            200,
            new long[] {1000, 1201, 1400},
            new long[] {1000, 1201, 1400}),
        Arguments.of(
            "201 ms is aligned",
            201,
            new long[] {1000, 1202, 1403},
            new long[] {1000, 1201, 1402}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void stampsScrapes(String name, long interval, long[] starts, long[] stamps) {
    ScrapeTimestamps ts = new ScrapeTimestamps(interval);
    long[] got = Arrays.stream(starts).map(ts::stamp).toArray();
    assertThat(got).as(name).containsExactly(stamps);
  }

  @Test
  void rejectsAnIntervalThatIsNotPositive() {
    assertThatThrownBy(() -> new ScrapeTimestamps(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 ms");
  }
}
