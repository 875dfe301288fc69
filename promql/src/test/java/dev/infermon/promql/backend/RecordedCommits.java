package dev.infermon.promql.backend;

import dev.infermon.storage.AppendWatermark;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The append watermark of a storage that a test writes by hand: each {@link #commit} records its
 * sequence number and lowest sample time, and {@link #lowestSince} answers from them exactly. Not
 * thread-safe (tests write and read on one thread).
 */
final class RecordedCommits implements AppendWatermark {
  private final List<long[]> commits = new ArrayList<>();

  /** Records a commit whose lowest sample is at {@code lowestMs}. */
  void commit(long lowestMs) {
    commits.add(new long[] {commits.size(), lowestMs});
  }

  @Override
  public long mark() {
    return commits.size();
  }

  @Override
  public OptionalLong lowestSince(long mark) {
    return OptionalLong.of(
        commits.stream()
            .filter(c -> c[0] >= mark)
            .mapToLong(c -> c[1])
            .min()
            .orElse(Long.MAX_VALUE));
  }
}
