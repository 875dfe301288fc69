package dev.infermon.server.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When the old generation is worth a full collection to give memory back. */
class HeapTrimTest {
  private static final long MB = 1 << 20;
  private static final long GAP = 300_000_000_000L;

  @ParameterizedTest(name = "{0} MB committed, {1} MB used, {2} s since the last: {3}")
  @CsvSource({
    "74, 48, 600, true", // run 26's end: 35% free
    "58, 53, 600, false", // 9% free: what MaxHeapFreeRatio=10 leaves
    "100, 80, 600, false", // exactly 20% free is not more than 20%
    "100, 79, 600, true",
    "74, 48, 299, false", // too soon after the last one
    "74, 48, 300, true",
    "0, 0, 600, false" // no old generation committed yet
  })
  void collectsOnlyWhenMuchIsFreeAndNotTooOften(
      long committedMb, long usedMb, long secondsSince, boolean expected) {
    assertThat(HeapTrim.due(committedMb * MB, usedMb * MB, secondsSince * 1_000_000_000L, GAP))
        .isEqualTo(expected);
  }
}
