package dev.infermon.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.model.labels.Labels;
import dev.infermon.tsdb.Tsdb;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The head's watermark: the lowest sample time committed since a mark, for the second the mark was
 * read in (and the one before) up to now; nothing known past {@link CommitTimes#SECONDS}.
 */
class CommitTimesTest {
  private long nanos = 5_000_000_000_000L;
  private final CommitTimes times = new CommitTimes(() -> nanos);

  private void seconds(double s) {
    nanos += (long) (s * 1e9);
  }

  @Test
  void theLowestSampleCommittedSinceTheMark() {
    times.committed(900);
    seconds(3);
    long mark = times.mark();
    assertThat(times.lowestSince(mark)).hasValue(Long.MAX_VALUE);
    seconds(0.5);
    times.committed(2_000);
    seconds(10);
    times.committed(1_500);
    times.committed(1_700);
    assertThat(times.lowestSince(mark)).hasValue(1_500);
    seconds(1);
    long later = times.mark();
    assertThat(times.lowestSince(later)).as("the second before the mark counts").hasValue(1_500);
    seconds(2);
    assertThat(times.lowestSince(times.mark())).hasValue(Long.MAX_VALUE);
  }

  @Test
  void aCommitInTheMarksSecondBeforeTheMarkCounts() {
    seconds(0.2);
    times.committed(100);
    seconds(0.3);
    assertThat(times.lowestSince(times.mark())).hasValue(100);
  }

  @Test
  void nothingIsKnownOfAMarkOlderThanTheRing() {
    long mark = times.mark();
    seconds(CommitTimes.SECONDS - 2);
    times.committed(7);
    assertThat(times.lowestSince(mark)).hasValue(7);
    seconds(1);
    assertThat(times.lowestSince(mark)).isEmpty();
    // a slot reused for a later second forgets what it held
    seconds(CommitTimes.SECONDS * 3);
    times.committed(50);
    assertThat(times.lowestSince(times.mark() - 5)).hasValue(50);
  }

  @Test
  void theTsdbCountsEveryCommitOnceItsSamplesAreVisible(@TempDir Path dir) throws Exception {
    try (Tsdb db = Tsdb.open(dir)) {
      Labels a = Labels.of("__name__", "up", "pod", "a");
      var app = db.appender();
      app.append(0, a, 1_060_000, 1);
      app.commit();
      long mark = db.mark();
      assertThat(db.lowestSince(mark))
          .as("committed in the mark's second: counted, to be safe")
          .hasValue(1_060_000);
      app = db.appender();
      app.append(0, a, 1_075_000, 1);
      app.append(0, Labels.of("__name__", "up", "pod", "b"), 1_030_000, 1);
      app.commit();
      assertThat(db.lowestSince(mark)).hasValue(1_030_000);
      app = db.appender();
      app.append(0, Labels.of("__name__", "up", "pod", "c"), 1_000_500, 1);
      app.rollback();
      assertThat(db.lowestSince(mark)).as("a rolled-back batch is not counted").hasValue(1_030_000);
      OptionalLong none = db.lowestSince(db.mark() - CommitTimes.SECONDS);
      assertThat(none).isEmpty();
    }
  }
}
