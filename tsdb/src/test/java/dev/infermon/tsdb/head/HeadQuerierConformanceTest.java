package dev.infermon.tsdb.head;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.Appender;
import dev.infermon.storage.Queryable;
import dev.infermon.storage.testing.QuerierConformance;
import dev.infermon.storage.testing.Sample;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/** The head answers the kit's fixed data set like the reference, across many chunks per series. */
class HeadQuerierConformanceTest extends QuerierConformance {
  @Override
  protected Queryable load(SortedMap<Labels, List<Sample>> data) {
    Head head = Head.create();
    // One transaction per scrape-like round so chunks are cut as they would be live.
    Appender app = head.appender();
    for (Map.Entry<Labels, List<Sample>> e : data.entrySet()) {
      for (Sample s : e.getValue()) {
        app.append(e.getKey(), s.t(), s.v());
      }
    }
    app.commit();
    return head;
  }
}
