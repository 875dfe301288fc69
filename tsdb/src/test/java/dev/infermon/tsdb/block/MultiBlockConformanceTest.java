package dev.infermon.tsdb.block;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.MergeQuerier;
import dev.infermon.storage.Querier;
import dev.infermon.storage.Queryable;
import dev.infermon.storage.testing.ConformanceData;
import dev.infermon.storage.testing.FixedQuerier;
import dev.infermon.storage.testing.QuerierConformance;
import dev.infermon.storage.testing.Sample;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;

/**
 * The read-only conformance kit against the data set cut into 1-hour blocks and then compacted in
 * part (two blocks merged into one): series cross block boundaries and compaction's output is read
 * back.
 */
class MultiBlockConformanceTest extends QuerierConformance {
  private static final long HOUR = 3_600_000L;
  private Path dir;
  private final List<Block> blocks = new ArrayList<>();

  @Override
  protected Queryable load(SortedMap<Labels, List<Sample>> data) throws Exception {
    dir = Files.createTempDirectory("multiblock-conformance");
    long start = Math.floorDiv(ConformanceData.START, HOUR) * HOUR;
    for (long t = start; t < ConformanceData.END; t += HOUR) {
      BlockWriter.writeHeadBlock(
              dir,
              FixedQuerier.of(data).select(true, Long.MIN_VALUE, Long.MAX_VALUE, List.of()),
              t,
              t + HOUR)
          .ifPresent(m -> blocks.add(open(m)));
    }
    // Merge the second and third block, as compaction would, and read the result instead.
    List<Block> pair = List.of(blocks.get(1), blocks.get(2));
    BlockMeta merged = Compactor.compact(dir, pair).orElseThrow();
    for (Block b : pair) {
      blocks.remove(b);
      b.closeAndDelete();
    }
    blocks.add(open(merged));
    return () -> {
      List<Querier> qs = new ArrayList<>();
      for (Block b : blocks) {
        qs.add(b.querier());
      }
      return MergeQuerier.of(qs);
    };
  }

  private Block open(BlockMeta m) {
    try {
      return Block.open(dir.resolve(m.ulid()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  protected boolean labelsFilteredBySampleTime() {
    return false;
  }

  @Override
  protected void cleanup() throws Exception {
    for (Block b : blocks) {
      b.close();
    }
    FileUtil.deleteRecursively(dir);
  }
}
