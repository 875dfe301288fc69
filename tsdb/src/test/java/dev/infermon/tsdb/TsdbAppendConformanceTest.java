package dev.infermon.tsdb;

import dev.infermon.storage.DuplicateSampleException;
import dev.infermon.storage.OutOfBoundsException;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.Storage;
import dev.infermon.storage.StorageException;
import dev.infermon.storage.testing.AppendableStorageConformance;
import dev.infermon.tsdb.head.HeadStats;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The write-path conformance kit against the whole database (head, log, blocks). */
class TsdbAppendConformanceTest extends AppendableStorageConformance {
  @TempDir Path dir;

  @Override
  protected Storage newStorage() throws Exception {
    return Tsdb.open(dir, TsdbOptions.defaults());
  }

  @Override
  protected long rejectedCount(Storage storage, Class<? extends StorageException> reason) {
    HeadStats s = ((Tsdb) storage).headStats();
    if (reason == OutOfOrderSampleException.class) {
      return s.outOfOrder();
    }
    if (reason == DuplicateSampleException.class) {
      return s.duplicate();
    }
    if (reason == OutOfBoundsException.class) {
      return s.outOfBounds();
    }
    return -1;
  }
}
