package dev.infermon.server.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When the old generation is worth a full collection to give memory back. */
class HeapTrimTest {
  private static final long MB = 1 << 20;
  private static final long GAP = 300_000_000_000L;

  @ParameterizedTest(
      name = "{0} MB committed, {1} MB used, MaxHeapFreeRatio {2}, {3} s since the last: {4}")
  @CsvSource({
    "74, 48, 10, 600, true", // run 26's end: 35% free
    "58, 53, 10, 600, false", // 9% free: what MaxHeapFreeRatio=10 leaves
    "100, 80, 10, 600, false", // exactly 20% free is not more than 20%
    "100, 79, 10, 600, true",
    "74, 48, 10, 299, false", // too soon after the last one
    "74, 48, 10, 300, true",
    "0, 0, 10, 600, false", // no old generation committed yet
    // queries running (the headroom's 70%): a collection would keep that much, give nothing back
    "100, 40, 70, 600, false",
    "100, 29, 70, 600, true"
  })
  void collectsOnlyWhenMuchIsFreeAndNotTooOften(
      long committedMb, long usedMb, int maxFree, long secondsSince, boolean expected) {
    assertThat(
            HeapTrim.due(
                committedMb * MB, usedMb * MB, maxFree, secondsSince * 1_000_000_000L, GAP))
        .isEqualTo(expected);
  }
}
