package dev.infermon.tsdb.block;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which blocks retention deletes, as Prometheus decides ({@code tsdb/db.go}): by time, every block
 * whose end lies a full retention period or more behind the newest block's end; by size, the oldest
 * blocks beyond the point where the newest blocks plus the write-ahead log exceed the byte limit.
 * Always the oldest first; the newest block is never deleted by time.
 *
 * <p>Stateless; thread-safe.
 */
public final class Retention {
  private Retention() {}

  /** A block as retention sees it. */
  public record Candidate(BlockMeta meta, long bytes) {}

  /**
   * @param retentionMs time retention, 0 for none
   * @param maxBytes size retention, 0 for none
   * @param extraBytes bytes counted before any block (the write-ahead log)
   * @return ids of the blocks to delete
   */
  public static Set<String> deletable(
      List<Candidate> blocks, long retentionMs, long maxBytes, long extraBytes) {
    List<Candidate> newestFirst = new ArrayList<>(blocks);
    newestFirst.sort(Comparator.comparingLong((Candidate c) -> c.meta().maxTime()).reversed());
    Set<String> out = new LinkedHashSet<>();
    if (retentionMs > 0 && !newestFirst.isEmpty()) {
      long newest = newestFirst.get(0).meta().maxTime();
      for (int i = 1; i < newestFirst.size(); i++) {
        if (newest - newestFirst.get(i).meta().maxTime() >= retentionMs) {
          for (Candidate c : newestFirst.subList(i, newestFirst.size())) {
            out.add(c.meta().ulid());
          }
          break;
        }
      }
    }
    if (maxBytes > 0) {
      long total = extraBytes;
      for (int i = 0; i < newestFirst.size(); i++) {
        total += newestFirst.get(i).bytes();
        if (total > maxBytes) {
          for (Candidate c : newestFirst.subList(i, newestFirst.size())) {
            out.add(c.meta().ulid());
          }
          break;
        }
      }
    }
    return out;
  }
}
