package dev.infermon.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.storage.testing.Sample;
import dev.infermon.storage.testing.Samples;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The series is its own open chunk: cuts and truncation must not disturb snapshots taken before.
 */
class MemSeriesTest {
  // Chunks are cut at each 100 s boundary: ten samples 10 s apart per chunk.
  private static final long RANGE = 100_000;
  private static final long STEP = 10_000;
  private static final int TARGET = 120;

  private final ChunkStore store = ChunkStore.onHeap();
  private final MemSeries series = new MemSeries(Labels.of("__name__", "up"), 1);

  @ParameterizedTest(name = "snapshot after {0} samples, then {1} in all")
  @CsvSource({
    // taken after, appended in all
    "1, 40",
    "5, 40",
    "9, 10", // the open chunk full, nothing cut yet
    "10, 11", // the sample that cut it is the next
    "10, 40", // several cuts later
    "15, 40", // a restarted chunk, itself cut later
    "40, 40",
  })
  void aSnapshotReadsWhatItCapturedWhateverIsAppendedAfter(int taken, int total) {
    List<Sample> appended = new ArrayList<>();
    SeriesSnapshot snap = null;
    for (int i = 0; i < total; i++) {
      if (i == taken) {
        snap = snapshot();
      }
      appendSample(i, appended);
    }
    if (snap == null) {
      snap = snapshot();
    }

    assertThat(read(snap)).containsExactlyElementsOf(appended.subList(0, taken));
    assertThat(read(snapshot())).containsExactlyElementsOf(appended);
    assertThat(series.chunkCount()).isEqualTo((total - 1) / 10 + 1);
  }

  @ParameterizedTest(name = "{0} samples, truncated before {1}")
  @CsvSource({
    // samples, truncate before, chunks dropped
    "5, 40000, 0", // the open chunk's newest sample is at the cut-off: kept
    "5, 40001, 1", // all of the open chunk goes: the series is empty
    "25, 200000, 2",
    "25, 240001, 3",
  })
  void truncationLeavesEarlierSnapshotsReadable(int samples, long mint, int dropped) {
    List<Sample> appended = new ArrayList<>();
    for (int i = 0; i < samples; i++) {
      appendSample(i, appended);
    }
    SeriesSnapshot before = snapshot();

    int got;
    synchronized (series) {
      got = series.truncateBefore(mint);
    }
    List<Sample> more = new ArrayList<>();
    for (int i = samples; i < samples + 12; i++) {
      appendSample(i, more); // restarts the open chunk if truncation dropped it
    }

    assertThat(got).isEqualTo(dropped);
    assertThat(read(before)).containsExactlyElementsOf(appended);
    List<Sample> kept = new ArrayList<>(appended.subList(Math.min(dropped * 10, samples), samples));
    kept.addAll(more);
    assertThat(read(snapshot())).containsExactlyElementsOf(kept);
  }

  private void appendSample(int i, List<Sample> appended) {
    long t = i * STEP;
    double v = i * 1.5;
    synchronized (series) {
      assertThat(series.appendable(t, Double.doubleToRawLongBits(v))).isEqualTo(MemSeries.OK);
      series.append(t, v, RANGE, TARGET, store);
    }
    appended.add(Sample.of(t, v));
  }

  private SeriesSnapshot snapshot() {
    synchronized (series) {
      return series.snapshot(store);
    }
  }

  private static List<Sample> read(SeriesSnapshot snap) {
    return Samples.drain(snap.iterator(Long.MIN_VALUE, Long.MAX_VALUE));
  }
}
