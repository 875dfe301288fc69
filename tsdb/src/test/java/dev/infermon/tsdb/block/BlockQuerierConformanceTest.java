package dev.infermon.tsdb.block;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Queryable;
import dev.infermon.storage.testing.ConformanceData;
import dev.infermon.storage.testing.FixedQuerier;
import dev.infermon.storage.testing.QuerierConformance;
import dev.infermon.storage.testing.Sample;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;

/** The read-only conformance kit against one block holding the whole data set. */
class BlockQuerierConformanceTest extends QuerierConformance {
  private Path dir;
  private Block block;

  @Override
  protected Queryable load(SortedMap<Labels, List<Sample>> data) throws Exception {
    dir = Files.createTempDirectory("block-conformance");
    BlockMeta meta =
        BlockWriter.writeHeadBlock(
                dir,
                FixedQuerier.of(data).select(true, Long.MIN_VALUE, Long.MAX_VALUE, List.of()),
                ConformanceData.START,
                ConformanceData.END)
            .orElseThrow();
    block = Block.open(dir.resolve(meta.ulid()));
    return block::querier;
  }

  @Override
  protected boolean labelsFilteredBySampleTime() {
    return false;
  }

  @Override
  protected void cleanup() throws Exception {
    block.close();
    FileUtil.deleteRecursively(dir);
  }
}
