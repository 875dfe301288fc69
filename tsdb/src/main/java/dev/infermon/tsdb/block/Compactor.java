package dev.infermon.tsdb.block;

import dev.infermon.storage.MergeQuerier;
import dev.infermon.storage.SeriesSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Merges blocks into one new block in the same directory. Overlapping blocks are joined series by
 * series; at a timestamp present in several, the sample of the block listed first is kept. The
 * parents are left in place: the caller deletes them once the new block is open, and a start-up
 * after a crash in between deletes blocks that a newer block names as parents.
 */
public final class Compactor {
  private Compactor() {}

  /**
   * Writes the merge of {@code blocks} under {@code dir}.
   *
   * @return the new block's meta; empty when the parents hold no samples
   */
  public static Optional<BlockMeta> compact(Path dir, List<Block> blocks) throws IOException {
    if (blocks.size() < 2) {
      throw new IllegalArgumentException("compaction needs at least two blocks: " + blocks);
    }
    List<BlockQuerier> queriers = new ArrayList<>();
    try {
      List<SeriesSet> sets = new ArrayList<>();
      List<BlockMeta> metas = new ArrayList<>();
      for (Block b : blocks) {
        BlockQuerier q = (BlockQuerier) b.querier();
        queriers.add(q);
        sets.add(q.selectAll(b.meta().minTime(), b.meta().maxTime() - 1));
        metas.add(b.meta());
      }
      return BlockWriter.writeMerged(dir, MergeQuerier.mergeSorted(sets), metas);
    } finally {
      for (BlockQuerier q : queriers) {
        q.close();
      }
    }
  }
}
