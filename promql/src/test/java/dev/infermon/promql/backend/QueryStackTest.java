package dev.infermon.promql.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The results cache's bound follows the heap a fleet is given, never below the small default. */
class QueryStackTest {
  private static final long GB = 1L << 30;

  @Test
  void aSmallHeapKeepsFourMillionPoints() {
    assertThat(QueryStack.rangeCachePoints(256L << 20)).isEqualTo(4_000_000L);
    assertThat(QueryStack.rangeCachePoints(GB / 2)).isEqualTo(4_000_000L);
  }

  @Test
  void aLargeHeapKeepsASixteenthOfItInPoints() {
    // 1,000 pods x 6 h: about ten million points, which a 12 GB heap (the sizing table's) holds
    assertThat(QueryStack.rangeCachePoints(12 * GB))
        .isEqualTo(12 * GB / 256)
        .isGreaterThan(10_000_000);
  }
}
