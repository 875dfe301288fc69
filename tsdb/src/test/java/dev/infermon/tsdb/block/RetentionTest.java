package dev.infermon.tsdb.block;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RetentionTest {
  /** Blocks [0,10), [10,20), [20,30), [30,40) of 100 bytes each. */
  private static final List<Retention.Candidate> BLOCKS = new ArrayList<>();

  static {
    for (int i = 0; i < 4; i++) {
      BLOCKS.add(new Retention.Candidate(CompactionPlannerTest.meta(i * 10, i * 10 + 10), 100));
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("nothing configured", 0L, 0L, 0L, new int[] {}),
        Arguments.of(
            "time: end a full period behind the newest end", 20L, 0L, 0L, new int[] {0, 1}),
        Arguments.of("time: just under a period keeps it", 21L, 0L, 0L, new int[] {0}),
        Arguments.of("time: never the newest", 1L, 0L, 0L, new int[] {0, 1, 2}),
        Arguments.of("size: newest blocks up to the limit", 0L, 250L, 0L, new int[] {0, 1}),
        Arguments.of("size: the log counts first", 0L, 250L, 60L, new int[] {0, 1, 2}),
        Arguments.of("size: exactly at the limit is kept", 0L, 400L, 0L, new int[] {}),
        Arguments.of(
            "size: even the newest when the log alone is over",
            0L,
            50L,
            60L,
            new int[] {0, 1, 2, 3}),
        Arguments.of("both: union", 30L, 350L, 0L, new int[] {0}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void deletesTheOldestBlocksBeyondRetention(
      String name, long time, long bytes, long extra, int[] expected) {
    List<Retention.Candidate> shuffled = new ArrayList<>(BLOCKS);
    java.util.Collections.reverse(shuffled);
    Set<String> got = Retention.deletable(shuffled, time, bytes, extra);
    List<String> want = new ArrayList<>();
    for (int i : expected) {
      want.add(BLOCKS.get(i).meta().ulid());
    }
    assertThat(got).as(name).containsExactlyInAnyOrderElementsOf(want);
  }
}
