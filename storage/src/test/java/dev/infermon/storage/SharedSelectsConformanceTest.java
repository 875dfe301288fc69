package dev.infermon.storage;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.testing.ConformanceData;
import dev.infermon.storage.testing.MemoryStorage;
import dev.infermon.storage.testing.QuerierConformance;
import dev.infermon.storage.testing.Sample;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Nested;

/**
 * Shared selects read as the storage under them: the kit's selects, seeks and batches, each asked
 * again by later tests of the class over the same shared selects (so most are answered from the
 * kept samples), with the final part ending inside the data, at its end, and with no room to keep
 * anything.
 */
class SharedSelectsConformanceTest {
  private static Queryable shared(SortedMap<Labels, List<Sample>> data, long upTo, long budget) {
    MemoryStorage memory = new MemoryStorage();
    Appender app = memory.appender();
    for (Map.Entry<Labels, List<Sample>> e : data.entrySet()) {
      for (Sample s : e.getValue()) {
        app.append(e.getKey(), s.t(), s.v());
      }
    }
    app.commit();
    return SharedSelects.over(memory, upTo, budget);
  }

  @Nested
  class FinalUpToTheMiddle extends QuerierConformance {
    @Override
    protected Queryable load(SortedMap<Labels, List<Sample>> data) {
      return shared(data, ConformanceData.MIDDLE, Long.MAX_VALUE);
    }
  }

  @Nested
  class AllFinal extends QuerierConformance {
    @Override
    protected Queryable load(SortedMap<Labels, List<Sample>> data) {
      return shared(data, Long.MAX_VALUE, Long.MAX_VALUE);
    }
  }

  @Nested
  class NothingKept extends QuerierConformance {
    @Override
    protected Queryable load(SortedMap<Labels, List<Sample>> data) {
      return shared(data, ConformanceData.MIDDLE, 0);
    }
  }
}
