package dev.infermon.tsdb.block;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Cases from Prometheus's compact_test.go (TestLeveledCompactor_plan), ranges 20, 60, 180, 540. */
class CompactionPlannerTest {
  private static final CompactionPlanner PLANNER =
      new CompactionPlanner(new long[] {20, 60, 180, 540});
  private static final Random RANDOM = new Random(1);

  static BlockMeta meta(long mint, long maxt) {
    return new BlockMeta(
        Ulid.of(1_000_000 + mint, RANDOM),
        mint,
        maxt,
        new BlockMeta.Stats(0, 0, 0),
        BlockMeta.Compaction.head("01ARZ3NDEKTSV4RRFFQ69G5FAV"),
        BlockMeta.VERSION);
  }

  /** Blocks as {mint, maxt} pairs, and the indexes of the expected plan. */
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no blocks", new long[][] {}, new int[] {}),
        Arguments.of("one block", new long[][] {{20, 40}}, new int[] {}),
        Arguments.of(
            "two blocks: the newest is left alone", new long[][] {{0, 20}, {20, 40}}, new int[] {}),
        Arguments.of(
            "three 20s blocks fill 60: but the newest is left out",
            new long[][] {{0, 20}, {20, 40}, {40, 60}},
            new int[] {}),
        Arguments.of(
            "a fourth block lets the first range of 60 be merged",
            new long[][] {{0, 20}, {20, 40}, {40, 60}, {60, 80}},
            new int[] {0, 1, 2}),
        Arguments.of(
            "a range before the newest block is merged even with gaps",
            new long[][] {{0, 20}, {40, 60}, {60, 80}},
            new int[] {0, 1}),
        Arguments.of(
            "three 60s blocks before a newer one make 180",
            new long[][] {{0, 60}, {60, 120}, {120, 180}, {180, 200}},
            new int[] {0, 1, 2}),
        Arguments.of(
            "a block that does not fit any range is skipped",
            new long[][] {{0, 20}, {20, 40}, {40, 60}, {50, 70}},
            new int[] {2, 3}),
        Arguments.of(
            "overlapping blocks are merged first",
            new long[][] {{0, 20}, {10, 30}, {100, 120}},
            new int[] {0, 1}),
        Arguments.of(
            "only the first overlapping run",
            new long[][] {{0, 20}, {10, 30}, {40, 60}, {50, 70}},
            new int[] {0, 1}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plansAsPrometheus(String name, long[][] ranges, int[] expected) {
    List<BlockMeta> blocks = new ArrayList<>();
    for (long[] r : ranges) {
      blocks.add(meta(r[0], r[1]));
    }
    List<BlockMeta> want = new ArrayList<>();
    for (int i : expected) {
      want.add(blocks.get(i));
    }
    List<BlockMeta> shuffled = new ArrayList<>(blocks);
    java.util.Collections.shuffle(shuffled, new Random(7));
    assertThat(PLANNER.plan(shuffled)).as(name).isEqualTo(want);
  }

  static Stream<Arguments> splits() {
    return Stream.of(
        Arguments.of(
            new long[][] {{0, 10}, {10, 20}, {50, 60}, {90, 100}},
            30L,
            "[[0-10, 10-20], [50-60], [90-100]]"),
        Arguments.of(new long[][] {{0, 10}, {10, 20}, {20, 40}}, 30L, "[[0-10, 10-20]]"),
        Arguments.of(new long[][] {{-30, -20}, {-20, -10}}, 30L, "[[-30--20, -20--10]]"));
  }

  @ParameterizedTest(name = "{2}")
  @MethodSource("splits")
  void splitByRangeGroupsByAlignedIntervals(long[][] ranges, long tr, String expected) {
    List<BlockMeta> blocks = new ArrayList<>();
    for (long[] r : ranges) {
      blocks.add(meta(r[0], r[1]));
    }
    List<List<String>> got = new ArrayList<>();
    for (List<BlockMeta> g : CompactionPlanner.splitByRange(blocks, tr)) {
      List<String> names = new ArrayList<>();
      for (BlockMeta m : g) {
        names.add(m.minTime() + "-" + m.maxTime());
      }
      got.add(names);
    }
    assertThat(got.toString()).isEqualTo(expected);
  }

  static Stream<Arguments> exponential() {
    return Stream.of(
        Arguments.of(2L, 10, 3, 1_000L, new long[] {2, 6, 18, 54, 162, 486}),
        Arguments.of(2L, 3, 3, 1_000L, new long[] {2, 6, 18}),
        Arguments.of(2L, 10, 3, 1L, new long[] {2}));
  }

  @ParameterizedTest
  @MethodSource("exponential")
  void exponentialRangesAreCapped(long min, int steps, int factor, long max, long[] expected) {
    assertThat(CompactionPlanner.exponentialRanges(min, steps, factor, max))
        .containsExactly(expected);
  }
}
