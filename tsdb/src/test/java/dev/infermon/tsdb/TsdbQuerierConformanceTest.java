package dev.infermon.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Queryable;
import dev.infermon.storage.testing.QuerierConformance;
import dev.infermon.storage.testing.Sample;
import dev.infermon.tsdb.fileutil.FileUtil;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The read-only conformance kit against the whole database after a restart: the data set is
 * appended in time order, the head is compacted into blocks (the data spans 6 h, blocks are 1 h),
 * the database is closed and reopened, so answers come from blocks and from a head rebuilt from the
 * checkpoint and log.
 */
class TsdbQuerierConformanceTest extends QuerierConformance {
  private Path dir;
  private Tsdb db;

  @Override
  protected Queryable load(SortedMap<Labels, List<Sample>> data) throws Exception {
    dir = Files.createTempDirectory("tsdb-conformance");
    TsdbOptions opts = TsdbOptions.defaults().withBlockRange(java.time.Duration.ofHours(1));
    try (Tsdb first = Tsdb.open(dir, opts)) {
      appendInTimeOrder(first, data);
      first.compact();
      assertThat(first.blocks()).as("part of the data is in blocks").hasSizeGreaterThan(2);
    }
    db = Tsdb.open(dir, opts);
    assertThat(db.replayStats().checkpoint()).as("log was checkpointed").isGreaterThanOrEqualTo(0);
    return db;
  }

  /** Appends every sample, oldest first across series, 50 samples per commit. */
  static void appendInTimeOrder(Tsdb db, Map<Labels, List<Sample>> data) {
    List<Object[]> all = new ArrayList<>();
    for (Map.Entry<Labels, List<Sample>> e : data.entrySet()) {
      for (Sample s : e.getValue()) {
        all.add(new Object[] {e.getKey(), s});
      }
    }
    all.sort(Comparator.comparingLong(o -> ((Sample) o[1]).t()));
    Appender app = db.appender();
    int n = 0;
    for (Object[] o : all) {
      Sample s = (Sample) o[1];
      app.append((Labels) o[0], s.t(), s.v());
      if (++n % 50 == 0) {
        app.commit();
        app = db.appender();
      }
    }
    app.commit();
  }

  @Override
  protected boolean labelsFilteredBySampleTime() {
    return false;
  }

  @Override
  protected void cleanup() throws Exception {
    db.close();
    FileUtil.deleteRecursively(dir);
  }
}
