package dev.infermon.storage;

import dev.infermon.model.labels.Labels;

/** One series of a query result: its labels and a way to read its samples. */
public interface Series {
  Labels labels();

  /**
   * A fresh iterator over the samples within the select's time range. Each call starts over; the
   * iterator is valid until the {@link Querier} that produced it is closed.
   */
  SampleIterator iterator();
}
