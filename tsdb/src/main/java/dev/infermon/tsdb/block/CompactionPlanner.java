package dev.infermon.tsdb.block;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Picks blocks to merge, as Prometheus's leveled compactor does ({@code tsdb/compact.go}): blocks
 * whose ranges overlap are merged first; otherwise, leaving out the newest block (so there is
 * always a window of one block in which fresh data is not rewritten), the smallest range of {@link
 * #ranges()} above the first under which two or more blocks fall into one aligned interval that
 * they fill, or that lies wholly before the newest block, is merged. With the default ranges 2 h, 6
 * h, 18 h, ... three 2-hour blocks become a 6-hour block, three of those an 18-hour block.
 *
 * <p>Immutable; thread-safe.
 */
public final class CompactionPlanner {
  private final long[] ranges;

  /**
   * @param ranges block ranges in milliseconds, increasing, each a multiple of the first
   */
  public CompactionPlanner(long[] ranges) {
    if (ranges.length == 0) {
      throw new IllegalArgumentException("no block ranges");
    }
    for (int i = 0; i < ranges.length; i++) {
      if (ranges[i] <= 0 || (i > 0 && ranges[i] <= ranges[i - 1])) {
        throw new IllegalArgumentException(
            "block ranges must increase: " + Arrays.toString(ranges));
      }
    }
    this.ranges = ranges.clone();
  }

  /**
   * {@code steps} ranges starting at {@code min}, each {@code factor} times the previous, capped:
   * ranges above {@code max} are left out (Prometheus caps at 10% of the retention or 31 days).
   */
  public static long[] exponentialRanges(long min, int steps, int factor, long max) {
    List<Long> out = new ArrayList<>();
    long r = min;
    for (int i = 0; i < steps && r <= max; i++) {
      out.add(r);
      r *= factor;
    }
    if (out.isEmpty()) {
      out.add(min);
    }
    return out.stream().mapToLong(Long::longValue).toArray();
  }

  public long[] ranges() {
    return ranges.clone();
  }

  /** The blocks to merge into one, oldest first; empty when nothing is due. */
  public List<BlockMeta> plan(List<BlockMeta> blocks) {
    List<BlockMeta> sorted = new ArrayList<>(blocks);
    sorted.sort(Comparator.comparingLong(BlockMeta::minTime));
    List<BlockMeta> overlapping = overlapping(sorted);
    if (!overlapping.isEmpty()) {
      return overlapping;
    }
    if (sorted.size() < 2) {
      return List.of();
    }
    List<BlockMeta> candidates = sorted.subList(0, sorted.size() - 1);
    long highTime = candidates.get(candidates.size() - 1).minTime();
    for (int i = 1; i < ranges.length; i++) {
      for (List<BlockMeta> part : splitByRange(candidates, ranges[i])) {
        long mint = part.get(0).minTime();
        long maxt = part.get(part.size() - 1).maxTime();
        if (part.size() > 1 && (maxt - mint == ranges[i] || maxt <= highTime)) {
          return List.copyOf(part);
        }
      }
    }
    return List.of();
  }

  /** The first run of blocks (sorted by minTime) whose ranges overlap. */
  static List<BlockMeta> overlapping(List<BlockMeta> sorted) {
    List<BlockMeta> out = new ArrayList<>();
    if (sorted.size() < 2) {
      return out;
    }
    long globalMaxt = sorted.get(0).maxTime();
    for (int i = 1; i < sorted.size(); i++) {
      BlockMeta b = sorted.get(i);
      if (b.minTime() < globalMaxt) {
        if (out.isEmpty()) {
          out.add(sorted.get(i - 1));
        }
        out.add(b);
      } else if (!out.isEmpty()) {
        break;
      }
      globalMaxt = Math.max(globalMaxt, b.maxTime());
    }
    return out;
  }

  /**
   * Groups blocks by the aligned interval of width {@code tr} they fall into; blocks that do not
   * fit one interval are left out. Example: [0-10, 10-20, 50-60, 90-100] with 30 gives [0-10,
   * 10-20], [50-60], [90-100].
   */
  static List<List<BlockMeta>> splitByRange(List<BlockMeta> blocks, long tr) {
    List<List<BlockMeta>> out = new ArrayList<>();
    int i = 0;
    while (i < blocks.size()) {
      BlockMeta m = blocks.get(i);
      long t0 = Math.floorDiv(m.minTime(), tr) * tr;
      if (m.maxTime() > t0 + tr) {
        i++;
        continue;
      }
      List<BlockMeta> group = new ArrayList<>();
      for (; i < blocks.size(); i++) {
        if (blocks.get(i).maxTime() > t0 + tr) {
          break;
        }
        group.add(blocks.get(i));
      }
      if (!group.isEmpty()) {
        out.add(group);
      }
    }
    return out;
  }
}
