package dev.infermon.tsdb.index;

import java.util.List;

/**
 * What matcher evaluation needs from an index: postings per label pair, all postings, and the
 * values of a label. The head's {@link MemPostings} implements it; so can a block's index.
 * Implementations are thread-safe; the postings they return are snapshots a reader owns.
 */
public interface PostingsReader {
  /** Series carrying {@code name="value"}; empty when there are none. */
  Postings postings(String name, String value);

  /** Every series. */
  Postings allPostings();

  /** The values of a label, sorted, each once; empty when no series has the label. */
  List<String> labelValues(String name);

  /** Every label name, sorted. */
  List<String> labelNames();
}
