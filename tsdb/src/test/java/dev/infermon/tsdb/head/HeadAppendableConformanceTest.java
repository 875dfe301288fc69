package dev.infermon.tsdb.head;

import dev.infermon.storage.DuplicateSampleException;
import dev.infermon.storage.OutOfBoundsException;
import dev.infermon.storage.OutOfOrderSampleException;
import dev.infermon.storage.Storage;
import dev.infermon.storage.StorageException;
import dev.infermon.storage.testing.AppendableStorageConformance;

/** The head alone passes the storage kit's write-path checks. */
class HeadAppendableConformanceTest extends AppendableStorageConformance {
  @Override
  protected Storage newStorage() {
    return Head.create();
  }

  @Override
  protected long rejectedCount(Storage storage, Class<? extends StorageException> reason) {
    HeadStats s = ((Head) storage).stats();
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
