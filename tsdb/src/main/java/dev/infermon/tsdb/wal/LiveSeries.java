package dev.infermon.tsdb.wal;

import dev.infermon.model.labels.Labels;

/** The series a checkpoint must keep: those still in the head. */
@FunctionalInterface
public interface LiveSeries {
  /** Calls {@code visitor} once per live series. */
  void forEachSeries(Visitor visitor);

  /** Receives one live series. */
  @FunctionalInterface
  interface Visitor {
    void accept(long ref, Labels labels);
  }
}
